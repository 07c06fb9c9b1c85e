import { CircleCheck, CircleX, ListChecks, TriangleAlert } from 'lucide-react';
import type { TDiagnosticIssue } from '@synchro/contracts';
import { Badge } from '../../components/ui/badge.tsx';
import { SectionCard } from '../../components/ui/section-card.tsx';
import { formatNumber, pluralize } from '../../lib/format.ts';
import { frenchSpacing } from './debug-format.ts';

function IssueItem({ issue }: { issue: TDiagnosticIssue }) {
  const details: string[] = [];
  if (issue.line !== undefined) details.push(`Ligne ${formatNumber(issue.line)}`);
  if (issue.count !== undefined) details.push(pluralize(issue.count, 'occurrence', 'occurrences'));
  return (
    <li className="grid gap-1.5 py-3">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        {issue.severity === 'error' ? (
          <Badge variant="destructive">
            <CircleX aria-hidden="true" />
            Erreur
          </Badge>
        ) : (
          <Badge variant="warning">
            <TriangleAlert aria-hidden="true" />
            Avertissement
          </Badge>
        )}
        {details.length ? (
          <span className="text-xs text-muted-foreground tabular-nums">{details.join(' · ')}</span>
        ) : null}
      </div>
      <p className="text-sm break-words text-foreground">{frenchSpacing(issue.message)}</p>
    </li>
  );
}

export function Issues({ issues, className }: { issues: TDiagnosticIssue[]; className?: string }) {
  const sorted = [
    ...issues.filter((issue) => issue.severity === 'error'),
    ...issues.filter((issue) => issue.severity !== 'error'),
  ];
  const errors = issues.filter((issue) => issue.severity === 'error').length;
  const warnings = issues.length - errors;
  return (
    <SectionCard
      title="Problèmes détectés"
      description={
        issues.length
          ? `${pluralize(errors, 'erreur', 'erreurs')}, ${pluralize(warnings, 'avertissement', 'avertissements')}`
          : undefined
      }
      icon={<ListChecks aria-hidden="true" />}
      titleId="debug-issues"
      className={className}
    >
      {sorted.length ? (
        <ul aria-label="Problèmes détectés" className="-mt-2 divide-y divide-border">
          {sorted.map((issue, index) => (
            <IssueItem key={`${issue.code}-${issue.line ?? ''}-${index}`} issue={issue} />
          ))}
        </ul>
      ) : (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <CircleCheck aria-hidden="true" className="size-4 text-success" />
          Aucun problème détecté.
        </p>
      )}
    </SectionCard>
  );
}
