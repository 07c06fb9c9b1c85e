import type { TDashboardSource, TDashboardView } from '@synchro/contracts';
import { Badge } from '../../components/ui/badge.tsx';
import { cn } from '../../lib/cn.ts';
import { formatPlanningCounts } from '../../lib/format.ts';
import { WARNINGS } from './dashboard-messages.ts';
import { WarningHint } from './warning-hint.tsx';

export function AutomateValue({ automate }: { automate: TDashboardView['automate'] }) {
  switch (automate.state) {
    case 'installed':
      return (
        <>
          <span>{automate.label || 'Installé'}</span>
          <Badge variant="success">Installé</Badge>
        </>
      );
    case 'not-installed':
      return <Badge variant="neutral">Non installé</Badge>;
    case 'update-required':
      return (
        <>
          {automate.label ? <span>{automate.label}</span> : null}
          <Badge variant="warning">Mise à jour requise</Badge>
          <WarningHint message={WARNINGS.automateUpdate} />
        </>
      );
    default:
      return <span className="text-muted-foreground">Non communiqué</span>;
  }
}

export function SourceState({ source }: { source: TDashboardSource }) {
  const label = source.statusLabel || (source.failed ? 'Connexion échouée' : 'État non communiqué');
  return (
    <li className="flex items-center gap-2 py-2.5 text-sm">
      <span
        aria-hidden="true"
        className={cn(
          'size-2.5 shrink-0 rounded-full',
          source.failed ? 'bg-destructive' : source.status === null ? 'bg-[#9aa7b5]' : 'bg-success',
        )}
      />
      <span className={cn('min-w-0 font-medium', source.failed ? 'text-destructive' : 'text-foreground')}>
        Cnx {source.position} {label}
      </span>
      {source.provider ? (
        <span className="truncate text-xs text-muted-foreground max-sm:hidden">({source.provider})</span>
      ) : null}
      {source.failed ? <WarningHint message={WARNINGS.connectionFailed} tone="destructive" /> : null}
    </li>
  );
}

/** "N Complètes / N Incrémentales / N Importations", each part kept on one line. */
export function PlanningCounts({ counts }: { counts: TDashboardView['planningCounts'] }) {
  const parts = formatPlanningCounts(counts).split(' / ');
  // A line may break after a slash, never before one nor inside a count.
  return (
    <span>
      {parts.map((part, index) => (
        <span key={part}>
          {index > 0 ? ' ' : null}
          <span className="whitespace-nowrap">{index < parts.length - 1 ? `${part} /` : part}</span>
        </span>
      ))}
    </span>
  );
}
