import { LoaderCircle } from 'lucide-react';
import { cn } from '../../lib/cn.ts';

export interface SpinnerProps {
  className?: string;
  /** Accessible text; without it the spinner is decorative (e.g. inside a labelled button). */
  label?: string;
}

export function Spinner({ className, label }: SpinnerProps) {
  if (label) {
    return (
      <span role="status" className="inline-flex items-center">
        <LoaderCircle aria-hidden="true" className={cn('size-4 animate-spin', className)} />
        <span className="sr-only">{label}</span>
      </span>
    );
  }
  return <LoaderCircle aria-hidden="true" className={cn('size-4 animate-spin', className)} />;
}

/** Full-area loading state: a centred spinner with its text. */
export function LoadingState({ label = 'Chargement…', className }: { label?: string; className?: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className={cn(
        'flex min-h-48 flex-col items-center justify-center gap-3 text-muted-foreground',
        className,
      )}
    >
      <LoaderCircle aria-hidden="true" className="size-7 animate-spin text-primary" />
      <span className="text-sm">{label}</span>
    </div>
  );
}
