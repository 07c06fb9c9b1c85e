import type { Db } from '../db/types.ts';
import { startPeriodicPass, type PeriodicPass } from './periodic-pass.ts';

/**
 * The retention of the email outbox (MAIL_RETENTION_DAYS, default 90; docs/mail.md): finished rows
 * (sent, failed for good, kept unsent without a relay) written more than that many days ago are
 * deleted, every installation together, the oldest first, in batches small enough that no request
 * waits long behind one (on the embedded database a batch holds the server's one thread), with a
 * pause between batches. A row still to send (gathering, pending, sending) is never deleted,
 * however old.
 */

export const MAIL_PRUNE_BATCH = 500;

export interface MailPruneOptions {
  batch?: number;
  pauseMs?: number;
  /** Stops after this many batches (tests). */
  maxBatches?: number;
  /** Asked before each batch: true ends the pass (the server stopping). */
  stopped?: () => boolean;
  /** Told of each batch: the rows it deleted. */
  onBatch?: (rows: number) => void;
}

/** Deletes the finished rows written before `days` ago (all installations); returns how many. */
export async function pruneMailOutbox(
  db: Db,
  days: number,
  now: Date,
  options: MailPruneOptions = {},
): Promise<number> {
  const batch = options.batch ?? MAIL_PRUNE_BATCH;
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  let deleted = 0;
  for (let i = 0; i < (options.maxBatches ?? Infinity); i++) {
    if (options.stopped?.()) break;
    // The partial index of finished rows (migration 027; its states written out, as its predicate,
    // for the planner to use it), oldest first. SKIP LOCKED: two server processes share the work.
    const rows = await db.query(
      `DELETE FROM mail_outbox WHERE id IN (
         SELECT id FROM mail_outbox
         WHERE state IN ('sent', 'failed', 'unconfigured') AND created_at < $1
         ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [cutoff, batch],
    );
    options.onBatch?.(rows.length);
    deleted += rows.length;
    if (rows.length < batch) break;
    await new Promise((r) => setTimeout(r, options.pauseMs ?? 50));
  }
  return deleted;
}

/** Prunes three minutes after the start, then every hour; `report` gets what each pass deleted. */
export function startMailRetention(
  db: Db,
  days: number,
  report: (deleted: number | Error) => void,
  intervalMs = 60 * 60_000,
): PeriodicPass {
  return startPeriodicPass(
    (stopped) => pruneMailOutbox(db, days, new Date(), { stopped }),
    (n) => {
      if (n instanceof Error || n > 0) report(n);
    },
    180_000,
    intervalMs,
  );
}
