import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import { cn } from '../../lib/cn.ts';
import { Button } from './button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from './card.tsx';
import { FieldHint, FieldMessage, Label } from './label.tsx';
import { CardIcon } from './section-card.tsx';

/** What a field hands its control: ids that tie it to its label, hint and error. */
export interface FieldControlProps {
  id: string;
  /** Id of the label, for controls named by aria-labelledby (Radix select, switch). */
  labelId: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

export interface FormFieldProps {
  label: string;
  hint?: ReactNode;
  /** Error message shown under the control and tied to it (aria-describedby, aria-invalid). */
  error?: string | undefined;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
  /** Something beside the control (e.g. a button), kept on the control's row. */
  aside?: ReactNode;
}

function useFieldIds(hint: ReactNode, error: string | undefined) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
  const control: FieldControlProps = { id, labelId: `${id}-label` };
  if (describedBy) control['aria-describedby'] = describedBy;
  if (error) control['aria-invalid'] = true;
  return { control, hintId, errorId };
}

/** A labelled field: label above, control, hint, error. */
export function FormField({ label, hint, error, className, children, aside }: FormFieldProps) {
  const { control, hintId, errorId } = useFieldIds(hint, error);
  return (
    <div className={cn('grid min-w-0 content-start gap-2', className)}>
      <Label id={control.labelId} htmlFor={control.id}>
        {label}
      </Label>
      {aside ? (
        <div className="flex min-w-0 flex-wrap items-start gap-2">
          <div className="min-w-48 flex-1">{children(control)}</div>
          {aside}
        </div>
      ) : (
        children(control)
      )}
      {hint ? <FieldHint id={hintId}>{hint}</FieldHint> : null}
      {error ? <FieldMessage id={errorId}>{error}</FieldMessage> : null}
    </div>
  );
}

/** A checkbox or switch with its label beside it (and a hint under the label). */
export function FormCheckField({
  label,
  hint,
  className,
  children,
}: Omit<FormFieldProps, 'error' | 'aside'>) {
  const { control, hintId } = useFieldIds(hint, undefined);
  return (
    <div className={cn('flex min-w-0 items-start gap-3', className)}>
      <div className="flex h-5 items-center">{children(control)}</div>
      <div className="grid gap-1">
        <Label id={control.labelId} htmlFor={control.id} className="leading-5">
          {label}
        </Label>
        {hint ? <FieldHint id={hintId}>{hint}</FieldHint> : null}
      </div>
    </div>
  );
}

/** A card grouping the fields of one block of a settings screen. */
export function FormSection({
  title,
  description,
  status,
  icon,
  className,
  contentClassName,
  children,
}: {
  title: string;
  description?: ReactNode;
  /** Read-only state shown in the header (e.g. a connection's status). */
  status?: ReactNode;
  icon?: ReactNode;
  className?: string;
  contentClassName?: string;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId} className={cn('@container min-w-0', className)}>
      <CardHeader className="flex-row flex-wrap items-start gap-x-3 gap-y-2 pb-4">
        {icon ? <CardIcon>{icon}</CardIcon> : null}
        <div className="grid min-w-0 flex-1 basis-48 gap-0.5 self-center">
          <CardTitle id={titleId}>{title}</CardTitle>
          {description ? <CardDescription>{description}</CardDescription> : null}
        </div>
        {status ? <div className="flex items-center self-center">{status}</div> : null}
      </CardHeader>
      <CardContent className={cn('grid gap-x-5 gap-y-5 @xl:grid-cols-2', contentClassName)}>
        {children}
      </CardContent>
    </Card>
  );
}

/** The CSS variable that lifts the toasts above a save bar (toast.tsx), so that none covers its button. */
export const SAVE_BAR_HEIGHT_VAR = '--save-bar-height';

/**
 * Publishes on the document how much of the window's bottom the bar takes while it is shown: its
 * height once stuck at the bottom, more when the form ends above (the page's padding below it).
 */
function useSaveBarHeight(bar: RefObject<HTMLDivElement | null>): void {
  useEffect(() => {
    const element = bar.current;
    if (!element) return;
    const root = document.documentElement.style;
    let frame = 0;
    const publish = () => {
      frame = 0;
      const box = element.getBoundingClientRect();
      const shown = box.bottom > 0 && box.top < window.innerHeight;
      const below = shown ? window.innerHeight - box.top : 0;
      root.setProperty(SAVE_BAR_HEIGHT_VAR, `${Math.round(below)}px`);
    };
    const schedule = () => (frame ||= requestAnimationFrame(publish));
    publish();
    const observer = new ResizeObserver(schedule);
    observer.observe(element);
    window.addEventListener('resize', schedule);
    window.addEventListener('scroll', schedule, { passive: true, capture: true });
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      window.removeEventListener('resize', schedule);
      window.removeEventListener('scroll', schedule, { capture: true });
      root.removeProperty(SAVE_BAR_HEIGHT_VAR);
    };
  }, [bar]);
}

/**
 * The bar under a settings form, kept in view at the bottom of the window: the state of the edits
 * and the submit button (busy while saving).
 */
export function SaveBar({
  dirty,
  saving,
  label = 'Valider',
  className,
}: {
  dirty: boolean;
  saving: boolean;
  label?: string;
  className?: string;
}) {
  const bar = useRef<HTMLDivElement>(null);
  useSaveBarHeight(bar);
  return (
    <div
      ref={bar}
      className={cn(
        'sticky bottom-0 z-10 -mx-4 mt-6 flex flex-wrap items-center justify-end gap-x-4 gap-y-2 border-t border-border bg-background/95 px-4 py-3 backdrop-blur-sm sm:-mx-6 sm:px-6 lg:-mx-8 lg:px-8',
        className,
      )}
    >
      <p role="status" className="text-sm text-muted-foreground">
        {saving ? 'Enregistrement…' : dirty ? 'Modifications non enregistrées' : ''}
      </p>
      <Button type="submit" busy={saving} className="min-w-28">
        {label}
      </Button>
    </div>
  );
}
