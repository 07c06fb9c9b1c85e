import { CircleCheck, History } from 'lucide-react';
import type { TRepairResponse } from '@synchro/contracts';
import { SectionCard } from '../../components/ui/section-card.tsx';
import { NBSP, NNBSP, formatNumber } from '../../lib/format.ts';
import { changesText, frenchSpacing } from './debug-format.ts';

export function RepairResult({ result }: { result: TRepairResponse }) {
  const count = result.changes.length;
  return (
    <SectionCard
      title={count ? 'Réparation effectuée' : 'Aucune réparation nécessaire'}
      description={
        count ? (
          <>
            {changesText(count)}. Nouvelle version{NBSP}: {result.version}.
          </>
        ) : (
          `Le document ne contenait rien à réparer${NNBSP}; aucune version n'a été créée.`
        )
      }
      icon={<History aria-hidden="true" />}
      tone="success"
      titleId="debug-repair-result"
      focusableTitle
      className="border-success/30"
    >
      <div className="grid gap-3">
        <p className="text-sm font-medium text-foreground">
          Sauvegarde{NBSP}: version {result.backupVersion}
        </p>
        {count ? (
          <ul aria-label="Modifications effectuées" className="grid gap-2">
            {result.changes.map((change, index) => (
              <li
                key={`${change.code}-${change.line ?? ''}-${index}`}
                className="flex items-start gap-2 rounded-md border border-border bg-muted/40 px-3 py-2 text-sm"
              >
                <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success" />
                <span className="min-w-0 break-words">
                  {frenchSpacing(change.message)}
                  {change.line !== undefined ? (
                    <span className="text-muted-foreground"> (ligne {formatNumber(change.line)})</span>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </SectionCard>
  );
}
