import type { Queryable } from '../db/types.ts';

export interface AuditEntry {
  installationId?: string | null;
  syncId?: string | null;
  /**
   * 'user' (console session), 'admin' (command line), 'anonymous' (login attempt), 'connector'
   * (connector API, bearer token), 'system'.
   */
  actor: 'user' | 'admin' | 'anonymous' | 'connector' | 'system';
  action: string;
  address?: string | null;
  /** Never a secret: no client id, token, password or configuration text. */
  details?: Record<string, unknown>;
}

export async function recordAudit(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (installation_id, sync_id, actor, action, address, details)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      entry.installationId ?? null,
      entry.syncId ?? null,
      entry.actor,
      entry.action,
      entry.address ?? null,
      entry.details ? JSON.stringify(entry.details) : null,
    ],
  );
}

/** The newest audit row of an installation among `actions`, or null. */
export async function lastAuditOf(
  db: Queryable,
  installationId: string,
  actions: readonly string[],
): Promise<Pick<AuditEntry, 'actor' | 'action' | 'details'> | null> {
  const [row] = await db.query<{ actor: AuditEntry['actor']; action: string; details: unknown }>(
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
