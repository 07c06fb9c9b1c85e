import { useId, type ReactNode } from 'react';
import { Ban, Check, EyeOff } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { patchAt } from '../../forms/patch-at.ts';
import { AUTORISE_LABELS, nextAutorise, setAll, type Autorise, type TerminalForm } from './terminals-form.ts';

const AUTORISE_STYLES: Record<Autorise, string> = {
  1: 'border-success/40 bg-success-soft text-success-soft-foreground hover:bg-[#d3efe0]',
  0: 'border-destructive/40 bg-destructive-soft text-destructive-soft-foreground hover:bg-[#fbdcd8]',
  [-1]: 'border-input bg-muted text-muted-foreground hover:bg-[#e2e8ee]',
};

const AUTORISE_ICONS: Record<Autorise, ReactNode> = {
  1: <Check aria-hidden="true" />,
  0: <Ban aria-hidden="true" />,
  [-1]: <EyeOff aria-hidden="true" />,
};

/** The tri-state toggle: 1 (green) → -1 (grey) → 0 (red) → 1 (docs/spec-notes.md, Web: Terminaux). */
function AutoriseToggle({
  feature,
  value,
  hintId,
  onChange,
}: {
  feature: string;
  value: Autorise;
  hintId: string;
  onChange: (value: Autorise) => void;
}) {
  return (
    <button
      type="button"
      aria-label={`${feature}\u00a0: ${AUTORISE_LABELS[value]}`}
      aria-describedby={hintId}
      onClick={() => onChange(nextAutorise(value))}
      className={cn(
        'inline-flex h-7 w-28 shrink-0 items-center justify-center gap-1.5 rounded-full border text-xs font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring [&_svg]:size-3.5',
        AUTORISE_STYLES[value],
      )}
    >
      {AUTORISE_ICONS[value]}
      {AUTORISE_LABELS[value]}
    </button>
  );
}

export function Features({
  form,
  onChange,
}: {
  form: TerminalForm;
  onChange: (change: (form: TerminalForm) => TerminalForm) => void;
}) {
  const titleId = useId();
  const hintId = useId();
  const count = (v: Autorise) => form.authorizations.filter((a) => a.Autorise === v).length;
  return (
    <section aria-labelledby={titleId} className="flex min-w-0 flex-col gap-3 @3xl:min-h-0">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="grid gap-0.5">
          <h3 id={titleId} className="text-sm font-semibold">
            Fonctionnalités
          </h3>
          <p className="text-xs text-muted-foreground">
            {count(1)} autorisée{count(1) > 1 ? 's' : ''}, {count(0)} interdite{count(0) > 1 ? 's' : ''},{' '}
            {count(-1)} invisible{count(-1) > 1 ? 's' : ''}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="outline" onClick={() => onChange((f) => setAll(f, 1))}>
            Tout Autoriser
          </Button>
          <Button size="sm" variant="outline" onClick={() => onChange((f) => setAll(f, 0))}>
            Tout Interdire
          </Button>
        </div>
      </div>
      <p id={hintId} className="sr-only">
        Chaque activation passe à l'état suivant{'\u00a0'}: Autorisé, Invisible, Interdit.
      </p>
      <ul
        aria-labelledby={titleId}
        className="divide-y divide-border rounded-md border border-border @3xl:min-h-0 @3xl:flex-1 @3xl:overflow-y-auto"
      >
        {form.authorizations.map((a, i) => (
          <li key={a.ID} className="flex items-center justify-between gap-3 px-3 py-1.5">
            <span className="min-w-0 text-sm">{a.Libelle}</span>
            <AutoriseToggle
              feature={a.Libelle}
              value={a.Autorise}
              hintId={hintId}
              onChange={(Autorise) =>
                onChange((f) => ({
                  ...f,
                  authorizations: patchAt(f.authorizations, i, { Autorise }),
                }))
              }
            />
          </li>
        ))}
      </ul>
    </section>
  );
}
