import { ASYNC_COMMIT } from '../db/transaction-settings.ts';
import type { Db, Queryable } from '../db/types.ts';
import { startPeriodicPass } from './periodic-pass.ts';

/**
 * The retention of the audit log (AUDIT_RETENTION_DAYS, default 400): rows older than that are
 * deleted, the oldest first, in batches small enough that no request waits long behind one (on
 * the embedded database a batch holds the server's one thread), with a pause between batches.
 * The only place where the application deletes audit rows; nothing ever updates one.
 */

export const DEFAULT_AUDIT_RETENTION_DAYS = 400;
export const AUDIT_PRUNE_BATCH = 1000;

/** Deletes the rows older than `days` (all installations); returns how many. */
export async function pruneAuditLog(
  db: Db,
  days: number,
  now: Date,
  options: { batch?: number; pauseMs?: number; maxBatches?: number } = {},
): Promise<number> {
  const batch = options.batch ?? AUDIT_PRUNE_BATCH;
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  let deleted = 0;
  // SKIP LOCKED: two server processes share the work instead of waiting on each other.
  const deleteOldest = (q: Queryable) =>
    q.query(
      `DELETE FROM audit_log WHERE id IN (
         SELECT id FROM audit_log WHERE at < $1 ORDER BY at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [cutoff, batch],
    );
  for (let i = 0; i < (options.maxBatches ?? Infinity); i++) {
    // On PostgreSQL the counter rows its triggers decrement, which every audited action
    // increments, are released at the commit rather than after the disk's fsync.
    const rows =
      db.kind === 'postgres' ? await db.transaction(deleteOldest, ASYNC_COMMIT) : await deleteOldest(db);
    deleted += rows.length;
    if (rows.length < batch) break;
    await new Promise((r) => setTimeout(r, options.pauseMs ?? 50));
  }
  return deleted;
}

export interface AuditRetention {
  stop(): Promise<void>;
}

/** Prunes a minute after the start, then every hour; `report` gets what each pass deleted. */
export function startAuditRetention(
  db: Db,
  days: number,
  report: (deleted: number | Error) => void,
  intervalMs = 60 * 60_000,
): AuditRetention {
  return startPeriodicPass(
    () => pruneAuditLog(db, days, new Date()),
    (n) => {
      if (n instanceof Error || n > 0) report(n);
    },
    60_000,
    intervalMs,
  );
}
