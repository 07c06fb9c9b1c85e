import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addInstallation } from '../../test/helpers/app.ts';
import { openTestDb, usingPostgres } from '../../test/helpers/db.ts';
import { insertRecords, insertTransactions } from '../../test/helpers/history.ts';
import { readEnv } from '../config/env.ts';
import type { Db, Queryable } from '../db/types.ts';
import {
  BATCH_LIMIT_MS,
  FIRST_BATCH,
  MAX_BATCH,
  MAX_CANCELLED_IN_A_ROW,
  MIN_BATCH,
  nextBatchSize,
  pruneHistory,
  startHistoryRetention,
  TARGET_BATCH_MS,
} from './history-retention.ts';

// Runs on the embedded database, and on PostgreSQL with TEST_DATABASE_URL.
let db: Db;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db.close();
});

const NOW = new Date('2026-11-20T12:00:00Z');
const DAY = 86_400_000;
const ago = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();

/** 6 records and 6 transactions: 4 older than 30 days (one with a file, one in error), 2 newer. */
async function seed(syncId: string): Promise<string> {
  const { installation } = await addInstallation(db, { syncId });
  const id = installation.id;
  await insertRecords(db, id, [
    { IDInterne: 'OLD-1', DateHeure: ago(400), file: { name: 'a.pdf', content: Buffer.from('PDF') } },
    { IDInterne: 'OLD-2', DateHeure: ago(90), Etat: -1 },
    { IDInterne: 'OLD-3', DateHeure: ago(31) },
    { IDInterne: 'OLD-4', DateHeure: ago(30.5) },
    { IDInterne: 'NEW-1', DateHeure: ago(29) },
    { IDInterne: 'NEW-2', DateHeure: ago(0) },
  ]);
  await insertTransactions(db, id, [
    { ID: 'OLD-1', DateHeureTrt: ago(400) },
    { ID: 'OLD-2', DateHeureTrt: ago(90), Err: 1 },
    { ID: 'OLD-3', DateHeureTrt: ago(31) },
    { ID: 'OLD-4', DateHeureTrt: ago(30.5) },
    { ID: 'NEW-1', DateHeureTrt: ago(29) },
    { ID: 'NEW-2', DateHeureTrt: ago(0) },
  ]);
  return id;
}

async function left(id: string) {
  const records = await db.query<{ id: string }>(
    'SELECT id_interne AS id FROM import_records WHERE installation_id = $1 ORDER BY id_interne',
    [id],
  );
  const transactions = await db.query<{ id: string }>(
    'SELECT tx_id AS id FROM transaction_logs WHERE installation_id = $1 ORDER BY tx_id',
    [id],
  );
  const [counts] = await db.query<{
    records: number;
    errors: number;
    transactions: number;
    txErrors: number;
  }>(
    `SELECT (SELECT coalesce(sum(total), 0)::int FROM import_record_day_counts WHERE installation_id = $1) AS records,
            (SELECT coalesce(sum(errors), 0)::int FROM import_record_day_counts WHERE installation_id = $1) AS errors,
            (SELECT coalesce(sum(total), 0)::int FROM transaction_log_day_counts WHERE installation_id = $1) AS transactions,
            (SELECT coalesce(sum(errors), 0)::int FROM transaction_log_day_counts WHERE installation_id = $1) AS "txErrors"`,
    [id],
  );
  const [files] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM import_record_files WHERE installation_id = $1',
    [id],
  );
  return {
    records: records.map((r) => r.id),
    transactions: transactions.map((r) => r.id),
    counts,
    files: files?.n,
  };
}

describe('history retention (HISTORY_RETENTION_DAYS)', () => {
  it('is off unless asked: the environment gives null, a pass and the scheduler delete nothing', async () => {
    expect(readEnv({}).historyRetentionDays).toBeNull();
    expect(readEnv({ HISTORY_RETENTION_DAYS: ' ' }).historyRetentionDays).toBeNull();
    expect(readEnv({ HISTORY_RETENTION_DAYS: '30' }).historyRetentionDays).toBe(30);
    expect(() => readEnv({ HISTORY_RETENTION_DAYS: '0' })).toThrow(/HISTORY_RETENTION_DAYS invalide/);
    expect(() => readEnv({ HISTORY_RETENTION_DAYS: 'trente' })).toThrow(/HISTORY_RETENTION_DAYS invalide/);

    const id = await seed('RETOFF');
    const before = await left(id);
    const result = await pruneHistory(db, null, NOW, { pauseMs: 0 });
    expect(result).toEqual({
      records: 0,
      transactions: 0,
      batches: 0,
      cancelled: 0,
      deferred: false,
      longestBatchMs: 0,
      byInstallation: new Map(),
    });
    // The scheduler with the option off runs nothing, even with a 1 ms interval.
    const retention = startHistoryRetention(db, null, () => {}, 1);
    await new Promise((r) => setTimeout(r, 30));
    await retention.stop();
    expect(await left(id)).toEqual(before);
    expect(before.records).toHaveLength(6);
    expect(before.transactions).toHaveLength(6);
    // Out of the way of the next tests (their passes walk every installation).
    await db.query('DELETE FROM import_records WHERE installation_id = $1', [id]);
    await db.query('DELETE FROM transaction_logs WHERE installation_id = $1', [id]);
  });

  it('deletes what is older than the retention, oldest first, in batches of the size asked', async () => {
    const id = await seed('RETON1');
    const other = await seed('RETON2');
    // Batches of 1, stopped after 3: the three oldest records of the first installation.
    const first = await pruneHistory(db, 30, NOW, { batch: 1, pauseMs: 0, maxBatches: 3 });
    expect(first.batches).toBeGreaterThanOrEqual(3);
    const afterFirst = [...(await left(id)).records, ...(await left(other)).records];
    const removed = ['OLD-1', 'OLD-2', 'OLD-3', 'OLD-4', 'NEW-1', 'NEW-2'].filter(
      (r) => afterFirst.filter((x) => x === r).length < 2,
    );
    expect(first.records).toBe(3);
    expect(removed).toEqual(['OLD-1', 'OLD-2', 'OLD-3']);

    // The rest, batches of 2: every row older than 30 days goes, the newer ones stay.
    const rest = await pruneHistory(db, 30, NOW, { batch: 2, pauseMs: 0 });
    expect(rest.records).toBeGreaterThanOrEqual(5);
    for (const inst of [id, other]) {
      const now = await left(inst);
      expect(now.records).toEqual(['NEW-1', 'NEW-2']);
      expect(now.transactions).toEqual(['NEW-1', 'NEW-2']);
      // The day counters and the files follow the deleted rows.
      expect(now.counts).toEqual({ records: 2, errors: 0, transactions: 2, txErrors: 0 });
      expect(now.files).toBe(0);
    }
    // A second pass finds nothing more.
    const again = await pruneHistory(db, 30, NOW, { pauseMs: 0 });
    expect(again.records + again.transactions).toBe(0);
  });

  it('sizes its batches to last about TARGET_BATCH_MS, within bounds', () => {
    // Past twice the target: halved, never under MIN_BATCH.
    expect(nextBatchSize(500, 2 * TARGET_BATCH_MS + 1)).toBe(250);
    expect(nextBatchSize(MIN_BATCH, 10_000)).toBe(MIN_BATCH);
    // Between the target and twice it: kept.
    expect(nextBatchSize(500, TARGET_BATCH_MS * 1.5)).toBe(500);
    // Under it: grown by half, never past MAX_BATCH (a fixed cost per batch never shrinks it).
    expect(nextBatchSize(500, 1)).toBe(750);
    expect(nextBatchSize(MAX_BATCH, 1)).toBe(MAX_BATCH);
  });

  it('walks on from where its previous batch ended, and deletes every old row, ties of time included', async () => {
    const id = await seed('RETON3');
    // Twenty more old records at the same time: the (time, id) bound keeps ties apart.
    await insertRecords(
      db,
      id,
      Array.from({ length: 20 }, (_, i) => ({ IDInterne: `TIE-${i}`, DateHeure: ago(200) })),
    );
    const sizes: number[] = [];
    const result = await pruneHistory(db, 30, NOW, {
      batch: 3,
      pauseMs: 0,
      onBatch: (table, rows) => {
        if (table === 'import_records') sizes.push(rows);
      },
    });
    expect((await left(id)).records).toEqual(['NEW-1', 'NEW-2']);
    // 24 old records of this installation in batches of 3 (others' batches are counted too).
    expect(sizes.filter((n) => n === 3).length).toBeGreaterThanOrEqual(8);
    expect(result.records).toBeGreaterThanOrEqual(24);
  });
});

/**
 * A PostgreSQL-like database with one installation. Each batch's search for its rows answers as
 * `answer` says for that call: a number of rows, 'timeout' (the rows found, then the deletion
 * cancelled as PostgreSQL does at statement_timeout) or an error. `steps` lists what each batch
 * ran, in order.
 */
function scriptedDb(answer: (call: number, size: number) => number | 'timeout' | Error) {
  const sizes: number[] = [];
  const settings: unknown[] = [];
  const steps: string[] = [];
  let calls = 0;
  let cancelNextDeletion = false;
  const tx: Queryable = {
    async query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
      steps.push(sql.split(' ', 1)[0] ?? '');
      if (sql.startsWith('DELETE')) {
        if (!cancelNextDeletion) return [];
        cancelNextDeletion = false;
        throw Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
      }
      const size = Number(params[2]);
      sizes.push(size);
      const a = answer(calls++, size);
      if (a instanceof Error) throw a;
      cancelNextDeletion = a === 'timeout';
      const found = a === 'timeout' ? size : a;
      return Array.from({ length: found }, (_, i) => ({ at: new Date(i * 1000), id: String(i + 1) }) as T);
    },
    async exec(sql: string) {
      steps.push(sql);
    },
  };
  const db: Db = {
    kind: 'postgres',
    async query<T>(sql: string): Promise<T[]> {
      if (sql.startsWith('SELECT id FROM installations')) return [{ id: '1' } as T];
      throw new Error(`outside a transaction: ${sql}`);
    },
    async exec() {},
    async transaction(fn, s) {
      settings.push(s);
      return fn(tx);
    },
    async close() {},
  };
  return { db, sizes, settings, steps };
}

describe('history retention: a batch over BATCH_LIMIT_MS on PostgreSQL', () => {
  it('bounds each batch’s deletion at BATCH_LIMIT_MS, commits without waiting for the disk; a cancelled batch is halved and tried again', async () => {
    // Two cancellations, then the rest in one batch (fewer rows than asked: the walk ends).
    const { db, sizes, settings, steps } = scriptedDb((call) => (call < 2 ? 'timeout' : 7));
    const result = await pruneHistory(db, 30, NOW, { pauseMs: 0 });
    expect(settings[0]).toEqual({ synchronous_commit: 'off' });
    // The rows are found without a bound; their deletion is bounded.
    expect(steps.slice(0, 3)).toEqual([
      'SELECT',
      `SET LOCAL statement_timeout = '${BATCH_LIMIT_MS}ms'`,
      'DELETE',
    ]);
    // Records then transactions: 500 → 250 → 125 (7 rows), then the transactions at 188 (grown).
    expect(sizes.slice(0, 3)).toEqual([FIRST_BATCH, FIRST_BATCH / 2, FIRST_BATCH / 4]);
    expect(result).toMatchObject({ records: 7, transactions: 7, cancelled: 2, deferred: false, batches: 4 });
  });

  it('ends the pass (deferred) after MAX_CANCELLED_IN_A_ROW cancellations at the smallest size', async () => {
    const { db, sizes } = scriptedDb(() => 'timeout');
    const result = await pruneHistory(db, 30, NOW, { pauseMs: 0 });
    const halvings = sizes.indexOf(MIN_BATCH);
    expect(halvings).toBeGreaterThan(0);
    // Down to MIN_BATCH, then MAX_CANCELLED_IN_A_ROW tries at it, then nothing more.
    expect(sizes.slice(halvings)).toEqual(Array(MAX_CANCELLED_IN_A_ROW).fill(MIN_BATCH));
    expect(result).toMatchObject({ records: 0, transactions: 0, deferred: true });
    expect(result.cancelled).toBe(sizes.length);
  });

  it('counts only cancellations in a row: a batch that deletes starts the count again', async () => {
    // Alternating at the smallest size never defers; the walk ends when a batch is not full.
    let deleted = 0;
    const { db } = scriptedDb((call, size) => {
      if (call % 2 === 0) return 'timeout';
      deleted += 1;
      return deleted < 12 ? size : 0;
    });
    const result = await pruneHistory(db, 30, NOW, { pauseMs: 0, batch: MIN_BATCH });
    expect(result.deferred).toBe(false);
    expect(result.cancelled).toBeGreaterThan(MAX_CANCELLED_IN_A_ROW);
    expect(result.records).toBe(11 * MIN_BATCH);
  });

  it('reports a deferred pass even when it deleted nothing; a pass with nothing to delete is not reported', async () => {
    const reported: unknown[] = [];
    const overloaded = startHistoryRetention(scriptedDb(() => 'timeout').db, 30, (r) => reported.push(r), 5);
    const idle = startHistoryRetention(scriptedDb(() => 0).db, 30, (r) => reported.push(r), 5);
    await vi.waitFor(() => expect(reported.length).toBeGreaterThan(0), { timeout: 5000 });
    await Promise.all([overloaded.stop(), idle.stop()]);
    expect(reported.every((r) => (r as { deferred?: boolean }).deferred === true)).toBe(true);
    expect(reported[0]).toMatchObject({ records: 0, transactions: 0, deferred: true });
  });

  it('lets any other error through', async () => {
    const { db } = scriptedDb(() => Object.assign(new Error('deadlock detected'), { code: '40P01' }));
    await expect(pruneHistory(db, 30, NOW, { pauseMs: 0 })).rejects.toThrow('deadlock detected');
  });
});

describe.skipIf(!usingPostgres())(
  'history retention on PostgreSQL: no write waits longer than a batch may last',
  () => {
    it('cancels a batch that holds the counter rows past BATCH_LIMIT_MS: a connector write waits for it a bounded time, nothing is deleted', async () => {
      const id = await seed('RETSLOW');
      const before = await left(id);
      expect(id).toMatch(/^[0-9a-f-]+$/);
      // Every deletion of this installation's records sleeps 2 s after the counter triggers took their
      // rows (statement triggers fire in name order): a batch that holds them that long.
      await db.exec(`
      CREATE FUNCTION retention_test_slow() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NOT EXISTS (SELECT 1 FROM old_rows WHERE installation_id = '${id}') THEN RETURN NULL; END IF;
        -- The batch's own settings, as PostgreSQL applies them (another error fails the pass).
        IF current_setting('synchronous_commit') <> 'off' THEN RAISE EXCEPTION 'synchronous_commit on'; END IF;
        PERFORM pg_sleep(2);
        RETURN NULL;
      END $$;
      CREATE TRIGGER zz_retention_test_slow AFTER DELETE ON import_records
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION retention_test_slow();`);
      try {
        const pass = pruneHistory(db, 30, NOW, { pauseMs: 0 });
        await new Promise((r) => setTimeout(r, 20));
        // What a connector write of a record does to the installation's state counts.
        const started = performance.now();
        await db.query('UPDATE import_record_state_counts SET n = n WHERE installation_id = $1', [id]);
        const waited = performance.now() - started;
        const result = await pass;
        // Without the limit the write waits for the 2 s batch.
        expect(waited).toBeLessThan(1000);
        expect(result).toMatchObject({ records: 0, deferred: true });
        expect(result.cancelled).toBeGreaterThanOrEqual(MAX_CANCELLED_IN_A_ROW);
        expect(result.longestBatchMs).toBeLessThan(1000);
        expect(await left(id)).toEqual(before);
      } finally {
        await db.exec(
          `DROP TRIGGER zz_retention_test_slow ON import_records; DROP FUNCTION retention_test_slow();`,
        );
      }
      // The next pass, with batches of a usual duration, deletes them.
      await pruneHistory(db, 30, NOW, { pauseMs: 0 });
      expect((await left(id)).records).toEqual(['NEW-1', 'NEW-2']);
    });

    it('does not bound the search for the rows: a batch whose search is slow (here: a table lock) is not cancelled', async () => {
      const id = await seed('RETSEARCH');
      // The search (SELECT … FOR UPDATE) waits for the table lock held 300 ms; the deletion is
      // only sent once it is released.
      let locked!: () => void;
      const held = new Promise<void>((r) => (locked = r));
      const holder = db.transaction(async (tx) => {
        await tx.query('LOCK TABLE import_records IN EXCLUSIVE MODE');
        locked();
        await tx.query('SELECT pg_sleep(0.3)');
      });
      await held;
      const result = await pruneHistory(db, 30, NOW, { pauseMs: 0 });
      await holder;
      // Bounded, the search would have been cancelled at 50 ms, again and again until the lock
      // went: no batch would have lasted this long. (A deletion cancelled after it, on a loaded
      // machine, is done again: not asserted.)
      expect(result.longestBatchMs).toBeGreaterThan(250);
      expect(result.deferred).toBe(false);
      expect((await left(id)).records).toEqual(['NEW-1', 'NEW-2']);
    });
  },
);
