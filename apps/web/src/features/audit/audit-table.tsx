import {
  AUDIT_ACTOR_LABELS,
  AUDIT_KINDS,
  AUDIT_OUTCOME_LABELS,
  type TAuditOutcome,
  type TAuditRow,
} from '@synchro/contracts';
import { Badge } from '../../components/ui/badge.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table.tsx';
import { useMediaQuery } from '../../components/ui/use-media-query.ts';
import { listTime } from '../../components/history/list-time.ts';

const OUTCOME_BADGE: Record<TAuditOutcome, 'success' | 'destructive' | 'warning'> = {
  success: 'success',
  failure: 'destructive',
  refused: 'warning',
};

function Outcome({ outcome }: { outcome: TAuditOutcome }) {
  return <Badge variant={OUTCOME_BADGE[outcome]}>{AUDIT_OUTCOME_LABELS[outcome]}</Badge>;
}

function Who({ row }: { row: TAuditRow }) {
  return (
    <>
      {AUDIT_ACTOR_LABELS[row.actor]}
      {row.address ? (
        <span className="block font-mono text-xs text-muted-foreground">{row.address}</span>
      ) : null}
    </>
  );
}

function Details({ row }: { row: TAuditRow }) {
  if (row.details.length === 0) return <span className="text-muted-foreground">—</span>;
  return (
    <ul className="grid gap-0.5 text-xs">
      {row.details.map((d, i) => (
        <li key={`${d.label}-${i}`} className="break-words">
          <span className="text-muted-foreground">{d.label}&nbsp;:</span> {d.value}
        </li>
      ))}
    </ul>
  );
}

export interface AuditTableProps {
  rows: TAuditRow[];
  zone: string;
}

function AuditCards({ rows, zone }: AuditTableProps) {
  return (
    <ul aria-label="Événements" className="grid gap-3">
      {rows.map((row) => (
        <li key={row.id} className="grid gap-2 rounded-lg border border-border bg-card p-3 shadow-card">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span className="font-medium">{row.label}</span>
            <Outcome outcome={row.outcome} />
          </div>
          <p className="text-sm text-muted-foreground tabular-nums">
            {listTime(row.at, zone)} · {AUDIT_KINDS[row.kind]}
          </p>
          <div className="text-sm">
            <Who row={row} />
          </div>
          <Details row={row} />
        </li>
      ))}
    </ul>
  );
}

/** The journal's rows: when, what, outcome, who, details. */
export function AuditTable(props: AuditTableProps) {
  const compact = useMediaQuery('(max-width: 767px)');
  if (compact) return <AuditCards {...props} />;
  const { rows, zone } = props;
  return (
    <Table className="min-w-[50rem]" scrollLabel="Événements du journal d’audit">
      <caption className="sr-only">Événements du journal d’audit</caption>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead>Date</TableHead>
          <TableHead>Type</TableHead>
          <TableHead>Action</TableHead>
          <TableHead>Résultat</TableHead>
          <TableHead>Auteur</TableHead>
          <TableHead>Détails</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.id} className="align-top">
            <TableCell className="whitespace-nowrap tabular-nums">{listTime(row.at, zone)}</TableCell>
            <TableCell className="whitespace-nowrap">{AUDIT_KINDS[row.kind]}</TableCell>
            <TableCell className="min-w-40 font-medium">{row.label}</TableCell>
            <TableCell>
              <Outcome outcome={row.outcome} />
            </TableCell>
            <TableCell>
              <Who row={row} />
            </TableCell>
            <TableCell className="w-full min-w-72">
              <Details row={row} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
