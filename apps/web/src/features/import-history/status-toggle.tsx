import { CircleCheck, CircleDashed, CircleX } from 'lucide-react';
import type { TEtat } from '@synchro/contracts';
import { cn } from '../../lib/cn.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { ETAT_TEXT } from './history-messages.ts';

const LOOK: Record<TEtat, { icon: typeof CircleCheck; className: string }> = {
  1: { icon: CircleCheck, className: 'border-success/30 bg-success-soft text-success-soft-foreground' },
  [-1]: {
    icon: CircleX,
    className: 'border-destructive/30 bg-destructive-soft text-destructive-soft-foreground',
  },
  0: { icon: CircleDashed, className: 'border-border bg-muted text-secondary-foreground' },
};

export interface StatusToggleProps {
  etat: TEtat;
  reference: string;
  /** A change is on its way: spinner, further clicks ignored. */
  pending: boolean;
  onCycle: () => void;
}

/**
 * The Traité cell: the state in text and icon (not colour alone); a click moves it along the cycle
 * 0 → 1 → -1 → 0. Its accessible name says the state, what a click does and the record.
 */
export function StatusToggle({ etat, reference, pending, onCycle }: StatusToggleProps) {
  const { label, action } = ETAT_TEXT[etat];
  const { icon: Icon, className } = LOOK[etat];
  const name = `${label}\u00a0: ${action} (${reference || 'sans référence'})`;
  return (
    <button
      type="button"
      aria-label={name}
      title={`${label} — cliquer pour ${action}`}
      aria-disabled={pending || undefined}
      aria-busy={pending || undefined}
      onClick={() => {
        if (!pending) onCycle();
      }}
      className={cn(
        'inline-flex h-7 min-w-[6.75rem] items-center gap-1.5 rounded-full border px-2.5 text-xs font-semibold whitespace-nowrap transition-colors hover:brightness-95 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring aria-disabled:cursor-progress',
        className,
      )}
    >
      {pending ? <Spinner className="size-3.5" /> : <Icon aria-hidden="true" className="size-3.5" />}
      {label}
    </button>
  );
}
