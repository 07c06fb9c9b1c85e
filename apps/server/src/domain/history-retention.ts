import type { Db } from '../db/types.ts';
import { ASYNC_COMMIT, setLocal } from '../db/transaction-settings.ts';
import { startPeriodicPass } from './periodic-pass.ts';

/**
 * The retention of the import history and the transaction trace (HISTORY_RETENTION_DAYS, issue
 * 18). Off by default: nothing of a customer's is deleted unless the option is set. When set,
 * records (DateHeure) and transactions (DateHeureTrt) older than that many days are deleted, one
 * installation at a time, the oldest first, in batches sized so that one batch lasts about
 * TARGET_BATCH_MS (on the embedded database a batch holds the server's one thread; on PostgreSQL
 * the rows it deletes and, until it commits, the counter rows its triggers decrement, which a
 * connector write into the same installation may wait for), with a pause between batches. On
 * PostgreSQL a batch's deletion is also cancelled at BATCH_LIMIT_MS, so that no such write ever
 * waits longer for it, however loaded the machine. The
 * installation's newest-first index is walked backwards: no index of its own is needed
 * (docs/decisions.md, « History retention »). The day counters and the values written apart
 * follow through the tables' own triggers (migrations 004, 006).
 */

/** A batch aims at this duration; never more than MAX_BATCH rows, never fewer than MIN_BATCH. */
export const TARGET_BATCH_MS = 20;
export const FIRST_BATCH = 500;
export const MIN_BATCH = 10;
export const MAX_BATCH = 5000;
/**
 * PostgreSQL: a batch whose deletion (its triggers included) is still running after this is
 * cancelled (`statement_timeout`) and rolled back, its locks released; the next one is half its
 * size. PGlite has no such timer (measured: the setting is accepted and never fires), so there the
 * sizing alone bounds a batch.
 */
export const BATCH_LIMIT_MS = 50;
/**
 * A batch's deletion on PostgreSQL, and what follows it, is cancelled at BATCH_LIMIT_MS. Its
 * transaction commits without waiting for the disk (ASYNC_COMMIT; measured: the connector writes
 * that waited for a batch waited for its COMMIT's WALSync, up to 120 ms on this machine's disk).
 */
const DELETION_LIMIT = setLocal({ statement_timeout: `${BATCH_LIMIT_MS}ms` }) ?? '';
/**
 * This many batches cancelled one after the other at the smallest size: the machine is too loaded
 * for even MIN_BATCH rows within BATCH_LIMIT_MS, and the pass ends (`deferred`); the next pass,
 * an hour later, goes on from the oldest rows left. Nothing is lost by deleting later.
 */
export const MAX_CANCELLED_IN_A_ROW = 5;

interface HistoryTable {
  table: 'import_records' | 'transaction_logs';
  time: 'date_heure' | 'date_heure_trt';
}

const TABLES: readonly HistoryTable[] = [
  { table: 'import_records', time: 'date_heure' },
  { table: 'transaction_logs', time: 'date_heure_trt' },
];

export interface HistoryPruneOptions {
  /** A fixed batch size (tests, the bench); otherwise sized by TARGET_BATCH_MS. */
  batch?: number;
  pauseMs?: number;
  /** Stops after this many batches that deleted rows, in all (tests). */
  maxBatches?: number;
  /** Asked before each batch: true ends the pass (the server stopping). */
  stopped?: () => boolean;
  /** Told of each batch: its table, rows deleted (0 when cancelled), duration (the bench). */
  onBatch?: (table: string, rows: number, ms: number) => void;
}

export interface HistoryPruneResult {
  records: number;
  transactions: number;
  /** Batches run, cancelled ones included. */
  batches: number;
  /** Batches cancelled at BATCH_LIMIT_MS (PostgreSQL), rolled back: nothing of theirs deleted. */
  cancelled: number;
  /** The pass ended early: MAX_CANCELLED_IN_A_ROW cancelled batches at the smallest size. */
  deferred: boolean;
  /** The longest batch, ms. */
  longestBatchMs: number;
  /** What was deleted in each installation that lost rows (the admin command audits it). */
  byInstallation: Map<string, { records: number; transactions: number }>;
}

/**
 * The next batch size after one of `size` rows that took `ms`: halved past twice TARGET_BATCH_MS,
 * grown by half under it, kept between. A batch has a fixed cost (its commit, the statement
 * triggers) besides its rows: measured under load, 10 rows cost 27 ms, so a size proportional to
 * the time per row would shrink to nothing (bench/README.md « History retention »).
 */
export function nextBatchSize(size: number, ms: number): number {
  if (ms > 2 * TARGET_BATCH_MS) return Math.max(MIN_BATCH, Math.floor(size / 2));
  if (ms < TARGET_BATCH_MS) return Math.min(MAX_BATCH, Math.ceil(size * 1.5));
  return size;
}

/**
 * Deletes the records and transactions older than `days` (every installation). `days` null: the
 * option is off, nothing is deleted.
 */
export async function pruneHistory(
  db: Db,
  days: number | null,
  now: Date,
  options: HistoryPruneOptions = {},
): Promise<HistoryPruneResult> {
  const result: HistoryPruneResult = {
    records: 0,
    transactions: 0,
    batches: 0,
    cancelled: 0,
    deferred: false,
    longestBatchMs: 0,
    byInstallation: new Map(),
  };
  if (days === null) return result;
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  const pause = () => new Promise((r) => setTimeout(r, options.pauseMs ?? 50));
  const installations = await db.query<{ id: string }>('SELECT id FROM installations ORDER BY id');
  let size = options.batch ?? FIRST_BATCH;
  let deleting = 0;
  let cancelledAtSmallest = 0;
  for (const { table, time } of TABLES) {
    for (const { id } of installations) {
      // Where the previous batch ended: the next one starts its index walk there, not over the
      // entries of the rows just deleted (dead until a vacuum, each one visited again otherwise).
      let after: { at: Date; id: string } | null = null;
      for (;;) {
        if (deleting >= (options.maxBatches ?? Infinity) || options.stopped?.()) return result;
        const started = performance.now();
        // null: the deletion was cancelled at BATCH_LIMIT_MS and rolled back.
        let rows: { at: Date; id: string }[] | null = null;
        try {
          rows = await deleteBatch(db, { table, time }, id, cutoff, size, after);
        } catch (err) {
          if (!isCancelledByTimeout(err)) throw err;
        }
        const ms = performance.now() - started;
        result.batches += 1;
        options.onBatch?.(table, rows?.length ?? 0, ms);
        result.longestBatchMs = Math.max(result.longestBatchMs, ms);
        if (rows === null) {
          result.cancelled += 1;
          if (options.batch !== undefined || size === MIN_BATCH) cancelledAtSmallest += 1;
          if (cancelledAtSmallest >= MAX_CANCELLED_IN_A_ROW) {
            result.deferred = true;
            return result;
          }
          if (options.batch === undefined) size = Math.max(MIN_BATCH, Math.floor(size / 2));
          await pause();
          continue;
        }
        cancelledAtSmallest = 0;
        if (rows.length > 0) deleting += 1;
        if (table === 'import_records') result.records += rows.length;
        else result.transactions += rows.length;
        if (rows.length > 0) {
          const mine = result.byInstallation.get(id) ?? { records: 0, transactions: 0 };
          if (table === 'import_records') mine.records += rows.length;
          else mine.transactions += rows.length;
          result.byInstallation.set(id, mine);
        }
        const full = rows.length === size;
        for (const row of rows) {
          if (
            after === null ||
            row.at.getTime() > after.at.getTime() ||
            (row.at.getTime() === after.at.getTime() && BigInt(row.id) > BigInt(after.id))
          )
            after = row;
        }
        if (options.batch === undefined) size = nextBatchSize(size, ms);
        if (!full) break;
        await pause();
      }
    }
  }
  return result;
}

/**
 * One batch: the `size` oldest rows of the installation older than `cutoff`, after `after`.
 * SKIP LOCKED: two server processes share the work instead of waiting on each other. The ORDER BY
 * walks (installation_id, time DESC, id DESC) backwards.
 *
 * On PostgreSQL the rows are found first, then deleted by id, and only the deletion is bounded by
 * BATCH_LIMIT_MS: finding them holds nothing a request waits for (the old rows' own locks), but at
 * the start of a walk it may pass over many index entries of rows deleted by earlier passes and
 * not vacuumed yet (measured at 10 000 000 rows: over 50 ms whatever the batch size, so a bound
 * on the whole batch cancelled every try). The deletion's triggers take the counter rows that
 * connector writes take too: that is the part a write may wait for.
 */
function deleteBatch(
  db: Db,
  { table, time }: HistoryTable,
  installationId: string,
  cutoff: Date,
  size: number,
  after: { at: Date; id: string } | null,
): Promise<{ at: Date; id: string }[]> {
  const oldest = (columns: string) => `SELECT ${columns} FROM ${table}
     WHERE installation_id = $1 AND ${time} < $2
       ${after ? `AND (${time}, id) > ($4::timestamptz, $5::bigint)` : ''}
     ORDER BY ${time}, id LIMIT $3 FOR UPDATE SKIP LOCKED`;
  const params = after ? [installationId, cutoff, size, after.at, after.id] : [installationId, cutoff, size];
  if (db.kind !== 'postgres')
    return db.query(
      `DELETE FROM ${table} WHERE id IN (${oldest('id')}) RETURNING ${time} AS at, id::text AS id`,
      params,
    );
  return db.transaction(async (tx) => {
    const rows = await tx.query<{ at: Date; id: string }>(oldest(`${time} AS at, id::text AS id`), params);
    if (rows.length === 0) return rows;
    await tx.exec(DELETION_LIMIT);
    await tx.query(`DELETE FROM ${table} WHERE id = ANY ($1::bigint[])`, [rows.map((r) => r.id)]);
    return rows;
  }, ASYNC_COMMIT);
}

/** PostgreSQL's « canceling statement due to statement timeout » (SQLSTATE 57014). */
function isCancelledByTimeout(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '57014';
}

export interface HistoryRetention {
  stop(): Promise<void>;
}

/**
 * Prunes two minutes after the start, then every hour; `report` gets what each pass deleted, and
 * each pass deferred (even with nothing deleted: an operator is told the retention cannot keep up).
 * `days` null (the option off): nothing is ever run.
 */
export function startHistoryRetention(
  db: Db,
  days: number | null,
  report: (result: HistoryPruneResult | Error) => void,
  intervalMs = 60 * 60_000,
): HistoryRetention {
  if (days === null) return { stop: async () => {} };
  return startPeriodicPass(
    (stopped) => pruneHistory(db, days, new Date(), { stopped }),
    (r) => {
      if (r instanceof Error || r.records + r.transactions > 0 || r.deferred) report(r);
    },
    120_000,
    intervalMs,
  );
}
