import { auditKindOf, auditLabelOf, type TAuditAction, type TAuditOutcome } from '@synchro/contracts';
import type { Queryable } from '../db/types.ts';
import { auditDetails } from './audit-details.ts';

/**
 * The audit log (docs/audit.md): one row per thing that changed something or tried to, written in
 * the transaction of what it records. Rows are never updated nor deleted by the application, except
 * by the retention (domain/audit-retention.ts).
 */

export interface AuditEntry {
  installationId?: string | null;
  syncId?: string | null;
  /**
   * 'user' (console session), 'admin' (command line), 'anonymous' (login attempt), 'connector'
   * (connector API, bearer token), 'system'.
   */
  actor: 'user' | 'admin' | 'anonymous' | 'connector' | 'system';
  /** One of AUDIT_ACTIONS: the journal shows its French label, never the key. */
  action: TAuditAction;
  address?: string | null;
  /** Never a secret: no client id, token, password or configuration text. */
  details?: Record<string, unknown>;
  /** What came of it; by default from the action (docs/audit.md, Outcome). */
  outcome?: TAuditOutcome;
}

/** Search texts are cut here: enough for the label, the address and the details' values. */
const SEARCH_TEXT_MAX = 2000;

function defaultOutcome(entry: AuditEntry): TAuditOutcome {
  switch (entry.action) {
    case 'login.failure':
      return 'failure';
    case 'login.refused':
    case 'login.throttled':
      return 'refused';
    case 'sync-automate.request':
      return entry.details?.outcome === 'accepted' ? 'success' : 'failure';
    default:
      return 'success';
  }
}

/** What the journal's search reads: the action's label, the address, the details as shown. */
export function auditSearchText(entry: Pick<AuditEntry, 'action' | 'address' | 'details'>): string {
  const details = auditDetails(entry.action, entry.details ?? null)
    .map((d) => `${d.label} ${d.value}`)
    .join('\u001f');
  return [auditLabelOf(entry.action), entry.address ?? '', details].join('\u001f').slice(0, SEARCH_TEXT_MAX);
}

export async function recordAudit(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (installation_id, sync_id, actor, action, address, details, kind, outcome, search_text)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, history_fold($9))`,
    [
      entry.installationId ?? null,
      entry.syncId ?? null,
      entry.actor,
      entry.action,
      entry.address ?? null,
      entry.details ? JSON.stringify(entry.details) : null,
      auditKindOf(entry.action),
      entry.outcome ?? defaultOutcome(entry),
      auditSearchText(entry),
    ],
  );
}

/** The newest audit row of an installation among `actions`, or null. */
export async function lastAuditOf(
  db: Queryable,
  installationId: string,
  actions: readonly TAuditAction[],
): Promise<Pick<AuditEntry, 'actor' | 'action' | 'details'> | null> {
  const [row] = await db.query<{ actor: AuditEntry['actor']; action: TAuditAction; details: unknown }>(
    `SELECT actor, action, details FROM audit_log
     WHERE installation_id = $1 AND action = ANY($2::text[])
     ORDER BY id DESC LIMIT 1`,
    [installationId, [...actions]],
  );
  if (!row) return null;
  const details = typeof row.details === 'string' ? (JSON.parse(row.details) as unknown) : row.details;
  return {
    actor: row.actor,
    action: row.action,
    ...(details && typeof details === 'object' ? { details: details as Record<string, unknown> } : {}),
  };
}
