import {
  AUDIT_ACTOR_LABELS,
  AUDIT_KINDS,
  AUDIT_OUTCOME_LABELS,
  auditKindOf,
  auditLabelOf,
  type TAuditActor,
  type TAuditExportQuery,
  type TAuditOutcome,
  type TAuditPage,
  type TAuditQuery,
  type TAuditRow,
  type TDisplayTimeZone,
} from '@synchro/contracts';
import type { Db } from '../../db/types.ts';
import { auditDetails } from '../../domain/audit-details.ts';
import type { CsvExport } from '../../domain/history-export.ts';
import { listPage, type HistoryFilters, type HistoryTable } from '../../domain/history-list.ts';
import { dayRangeIn } from '../../time/day-range.ts';

/** The audit journal as the list engine reads it (indexes and counters: migration 008). */
export const AUDIT_LOG: HistoryTable = {
  name: 'audit',
  table: 'audit_log',
  time: 'at',
  error: "outcome <> 'success'",
  searchText: 'search_text',
  dayCounts: 'audit_log_day_counts',
  kind: 'kind',
};

const COLUMNS = `id::text AS id, at, actor, action, outcome, address, details`;

interface AuditDbRow {
  id: string;
  at: Date;
  actor: TAuditActor;
  action: string;
  outcome: TAuditOutcome;
  address: string | null;
  details: unknown;
}

const detailsOf = (v: unknown): Record<string, unknown> | null => {
  const d = typeof v === 'string' ? (JSON.parse(v) as unknown) : v;
  return d && typeof d === 'object' && !Array.isArray(d) ? (d as Record<string, unknown>) : null;
};

function toRow(r: AuditDbRow): TAuditRow {
  return {
    id: r.id,
    at: r.at.toISOString(),
    actor: r.actor,
    action: r.action,
    kind: auditKindOf(r.action),
    label: auditLabelOf(r.action),
    outcome: r.outcome,
    address: r.address,
    details: auditDetails(r.action, detailsOf(r.details)),
  };
}

export function auditFilters(query: Omit<TAuditExportQuery, never>, zone: string): HistoryFilters {
  return {
    errorOnly: query.errorOnly,
    range: query.date ? dayRangeIn(query.date, zone) : null,
    search: query.search ?? null,
    kind: query.kind ?? null,
  };
}

export async function listAudit(
  db: Db,
  installationId: string,
  query: TAuditQuery,
  displayTimeZone: TDisplayTimeZone,
  secret: string,
  retentionDays: number,
): Promise<TAuditPage> {
  const { rows, paging } = await listPage(
    db,
    AUDIT_LOG,
    installationId,
    auditFilters(query, displayTimeZone.zone),
    query,
    { columns: COLUMNS, secret, map: toRow },
  );
  return { rows, pagination: paging, displayTimeZone, retentionDays };
}

export const AUDIT_CSV_HEADERS = [
  'Date',
  'Décalage UTC',
  'Type',
  'Action',
  'Résultat',
  'Auteur',
  'Adresse',
  'Détails',
];

export const AUDIT_CSV: CsvExport<AuditDbRow & { epochMs: number }> = {
  table: AUDIT_LOG,
  columns: `${COLUMNS}, (extract(epoch FROM at) * 1000)::float8 AS "epochMs"`,
  cells: (r, time) => {
    const row = toRow(r);
    return [
      time.text,
      time.offset,
      AUDIT_KINDS[row.kind],
      row.label,
      AUDIT_OUTCOME_LABELS[row.outcome],
      AUDIT_ACTOR_LABELS[row.actor],
      row.address ?? '',
      row.details.map((d) => `${d.label} : ${d.value}`).join(' ; '),
    ];
  },
};
