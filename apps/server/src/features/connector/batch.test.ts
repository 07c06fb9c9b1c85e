import { MessageChannel } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestDb } from '../../../test/helpers/db.ts';
import type { Db, Queryable } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import type { TPayloadIssue } from '@synchro/contracts';
import {
  checkedSlices,
  checkSliceSize,
  rowsWithin,
  sliceChecks,
  STATEMENT_CHARS,
  statementsInFlight,
  streamedSlices,
  writeBatch,
  type BatchSteps,
} from './batch.ts';
import { TRANSACTIONS_PER_STATEMENT, transactionsPerStatement } from './transactions.ts';

/** writeBatch: rows written while the next ones are checked, all or nothing. */

let db: Db;

beforeAll(async () => {
  db = await openTestDb();
  await db.exec('CREATE TABLE batch_probe (id text PRIMARY KEY, n int NOT NULL)');
});
afterAll(async () => {
  await db.close();
});

/** The test database, seen by writeBatch as a database of `kind` (it only changes the slices). */
const as = (kind: Db['kind']): Db => ({
  kind,
  query: (sql, params, options) => db.query(sql, params, options),
  exec: (sql) => db.exec(sql),
  transaction: (fn) => db.transaction(fn),
  close: async () => {},
});

const stored = async () =>
  (await db.query<{ id: string }>('SELECT id FROM batch_probe ORDER BY n')).map((r) => r.id);

type Item = { id: string; n: number; bad?: boolean };

async function insertRows(tx: Queryable, rows: readonly Item[]): Promise<number> {
  const inserted = await tx.query(
    `INSERT INTO batch_probe (id, n) SELECT * FROM unnest($1::text[], $2::int[])
     ON CONFLICT (id) DO NOTHING RETURNING 1`,
    [rows.map((r) => r.id), rows.map((r) => r.n)],
  );
  return inserted.length;
}

type Steps = BatchSteps<Item> & {
  prepare: (slice: readonly Item[], offset: number, issues: TPayloadIssue[]) => Item[];
};

/** writeBatch over the items checked slice by slice on this thread (sliceChecks). */
const run = (target: Db, batch: readonly Item[], s: Steps) =>
  writeBatch(target, batch.length, sliceChecks(target.kind, s.chunkSize, batch, s.prepare), s);

function steps(events: string[], overrides: Partial<Steps> = {}): Steps {
  return {
    chunkSize: 3,
    prepare: (chunk, offset, issues) => {
      events.push(`check ${offset}`);
      chunk.forEach((item, k) => {
        if (item.bad) issues.push({ path: `items[${offset + k}].n`, message: 'invalide' });
      });
      return [...chunk];
    },
    idOf: (item) => item.id,
    write: async (tx: Queryable, rows) => {
      events.push(`write ${rows.map((r) => r.n).join(',')}`);
      return insertRows(tx, rows);
    },
    ...overrides,
  };
}

const items = (prefix: string, count: number): Item[] =>
  Array.from({ length: count }, (_, n) => ({ id: `${prefix}${n}`, n }));

describe('writeBatch', () => {
  it('cuts a statement at STATEMENT_CHARS of big texts (at least one row), whatever the chunk size', async () => {
    const third = Math.floor(STATEMENT_CHARS / 3);
    expect(rowsWithin([1, 1, 1, 1], 3, () => third)).toEqual({ count: 3, chars: 3 * third });
    expect(rowsWithin([1, 1, 1, 1], 10, () => third)).toEqual({ count: 3, chars: 3 * third });
    expect(rowsWithin([1, 1], 10, () => STATEMENT_CHARS * 2)).toEqual({
      count: 1,
      chars: STATEMENT_CHARS * 2,
    });
    expect(rowsWithin([1, 1, 1], 2)).toEqual({ count: 2, chars: 0 });
    const events: string[] = [];
    const big = steps(events, { chunkSize: 10, charsOf: () => third });
    const batch = items('C', 7);
    expect(await writeBatch(db, batch.length, checkedSlices(batch, 10), big)).toEqual({
      inserted: 7,
      duplicates: 0,
    });
    expect(events.filter((e) => e.startsWith('write'))).toEqual(['write 0,1,2', 'write 3,4,5', 'write 6']);
    await db.query("DELETE FROM batch_probe WHERE id LIKE 'C%'");
  });

  it('sends the first slice at once, then whole chunks, then the rest, in order; slices and chunks are standard sizes', async () => {
    const events: string[] = [];
    const standard: boolean[] = [];
    // A slow database: everything is checked while the first statement runs.
    const slow = steps(events, {
      write: async (tx, rows, isStandard) => {
        events.push(`write ${rows.map((r) => r.n).join(',')}`);
        standard.push(isStandard);
        await new Promise((resolve) => setTimeout(resolve, 200));
        return insertRows(tx, rows);
      },
    });
    const answer = await run(as('postgres'), items('A', 8), slow);
    expect(answer).toEqual({ inserted: 8, duplicates: 0 });
    expect(await stored()).toEqual(items('A', 8).map((i) => i.id));
    // The database starts after one item (a slice: a tenth of a chunk of 3) is checked.
    expect(events.slice(0, 3)).toEqual(['check 0', 'write 0', 'check 1']);
    const writes = events.filter((e) => e.startsWith('write')).map((e) => e.slice(6).split(',').map(Number));
    expect(writes.flat()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // Checked while the first ran, the others leave a whole chunk at a time, the rest last.
    expect(writes).toEqual([[0], [1, 2, 3], [4, 5, 6], [7]]);
    expect(standard).toEqual([true, true, true, false]);
  });

  it('a chunk leaves only once it is whole, however fast the database is', async () => {
    const events: string[] = [];
    await run(as('postgres'), items('W', 8), steps(events));
    const writes = events.filter((e) => e.startsWith('write')).map((e) => e.slice(6));
    expect(writes).toEqual(['0', '1,2,3', '4,5,6', '7']);
  });

  it('checks by slices of a tenth of a chunk on PostgreSQL, a whole chunk on the embedded database', () => {
    expect([1, 3, 10, 11, 250, 500].map((n) => checkSliceSize('postgres', n))).toEqual([1, 1, 1, 2, 25, 50]);
    expect([1, 3, 250].map((n) => checkSliceSize('pglite', n))).toEqual([1, 3, 250]);
  });

  it('on the embedded database (same thread), checks and writes a whole chunk at a time', async () => {
    const events: string[] = [];
    await run(as('pglite'), items('P', 8), steps(events));
    expect(events.filter((e) => e.startsWith('check'))).toEqual(['check 0', 'check 3', 'check 6']);
    expect(events.filter((e) => e.startsWith('write'))).toEqual(['write 0,1,2', 'write 3,4,5', 'write 6,7']);
  });

  it('counts ids met earlier in the batch or already stored as duplicates (the first is kept)', async () => {
    const batch = [...items('B', 4), { id: 'B1', n: 100 }, { id: 'A0', n: 101 }];
    expect(await run(db, batch, steps([]))).toEqual({ inserted: 4, duplicates: 2 });
    const [row] = await db.query<{ n: number }>(`SELECT n FROM batch_probe WHERE id = 'B1'`);
    expect(row?.n).toBe(1);
  });

  it('a fault in the last chunk after others were written: 400 naming every fault, nothing written', async () => {
    const before = await stored();
    const batch = items('C', 10);
    batch[2] = { ...batch[2], bad: true } as Item;
    batch[9] = { ...batch[9], bad: true } as Item;
    const err = await run(db, batch, steps([])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(400);
    expect((err as AppError).message).toBe(
      'Requête invalide\u00a0: items[2].n\u00a0: invalide\u202f; items[9].n\u00a0: invalide',
    );
    expect(await stored()).toEqual(before);

    const late = items('D', 10);
    late[5] = { ...late[5], bad: true } as Item;
    const events: string[] = [];
    await expect(run(as('postgres'), late, steps(events))).rejects.toThrow('items[5].n');
    // Nothing checked after the fault leaves; what left before it is rolled back.
    const fault = events.indexOf('check 5');
    expect(events.slice(fault).filter((e) => e.startsWith('write'))).toEqual([]);
    expect(events.slice(0, fault).some((e) => e.startsWith('write'))).toBe(true);
    expect(events.filter((e) => e.startsWith('check'))).toHaveLength(10);
    expect(await stored()).toEqual(before);
  });

  it('a statement that fails rolls the whole batch back and stops the next ones', async () => {
    const before = await stored();
    const events: string[] = [];
    const failing = steps(events, {
      write: async (tx, rows) => {
        events.push(`write ${rows[0]?.n}`);
        if (rows.some((r) => r.n === 3)) await tx.query('SELECT 1/0');
        await tx.query('INSERT INTO batch_probe (id, n) SELECT * FROM unnest($1::text[], $2::int[])', [
          rows.map((r) => r.id),
          rows.map((r) => r.n),
        ]);
        return rows.length;
      },
    });
    await expect(run(as('postgres'), items('E', 9), failing)).rejects.toThrow(/division by zero/);
    // No statement leaves after the failing one.
    const writes = events.filter((e) => e.startsWith('write'));
    expect(events.filter((e) => e.startsWith('check'))).toHaveLength(9);
    expect(Number(writes.at(-1)?.slice(6))).toBeLessThanOrEqual(3);
    expect(await stored()).toEqual(before);
  });

  it('rows checked before (a worker thread): a statement per chunk, then the last step inside the transaction', async () => {
    const events: string[] = [];
    const checked = items('F', 7);
    const answer = await writeBatch(as('pglite'), checked.length, checkedSlices(checked, 3), {
      chunkSize: 3,
      idOf: (r) => r.id,
      write: async (tx, rows, isStandard) => {
        events.push(`write ${rows.map((r) => r.n).join(',')}${isStandard ? '' : ' (last)'}`);
        return insertRows(tx, rows);
      },
      finish: async (tx) => {
        const [row] = await tx.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM batch_probe WHERE id LIKE 'F%'`,
        );
        events.push(`finish after ${row?.n}`);
      },
    });
    expect(answer).toEqual({ inserted: 7, duplicates: 0 });
    expect(events).toEqual(['write 0,1,2', 'write 3,4,5', 'write 6 (last)', 'finish after 7']);
  });

  it('a last step that fails rolls everything back', async () => {
    const before = await stored();
    const checked = items('G', 4);
    await expect(
      writeBatch(db, checked.length, checkedSlices(checked, 3), {
        chunkSize: 3,
        idOf: (r) => r.id,
        write: (tx, rows) => insertRows(tx, rows),
        finish: async (tx) => {
          await tx.query('SELECT 1/0');
        },
      }),
    ).rejects.toThrow(/division by zero/);
    expect(await stored()).toEqual(before);
  });
});

describe('writeBatch: several statements in flight (inFlight)', () => {
  /** A write that waits to be let through, statement by statement, by the test. */
  function heldWrites(events: string[]) {
    const gates: (() => void)[] = [];
    return {
      write: async (tx: Queryable, rows: Item[]) => {
        events.push(`write ${rows.map((r) => r.n).join(',')}`);
        await new Promise<void>((resolve) => gates.push(resolve));
        return insertRows(tx, rows);
      },
      releaseFirst: () => gates.shift()?.(),
    };
  }

  it('whole chunks leave while earlier ones await their answers, never more than inFlight; the last step after every answer', async () => {
    const events: string[] = [];
    const held = heldWrites(events);
    const checked = items('H', 9);
    const answer = writeBatch(db, checked.length, checkedSlices(checked, 2), {
      chunkSize: 2,
      idOf: (r) => r.id,
      write: held.write,
      finish: async () => {
        events.push('finish');
      },
      inFlight: 2,
    });
    await vi.waitFor(() => expect(events).toEqual(['write 0,1', 'write 2,3']));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toHaveLength(2);
    held.releaseFirst();
    await vi.waitFor(() => expect(events).toEqual(['write 0,1', 'write 2,3', 'write 4,5']));
    held.releaseFirst();
    held.releaseFirst();
    await vi.waitFor(() => expect(events.at(-1)).toBe('write 8'));
    expect(events).not.toContain('finish');
    held.releaseFirst();
    held.releaseFirst();
    expect(await answer).toEqual({ inserted: 9, duplicates: 0 });
    expect(events).toEqual(['write 0,1', 'write 2,3', 'write 4,5', 'write 6,7', 'write 8', 'finish']);
    expect(await db.query(`SELECT id FROM batch_probe WHERE id LIKE 'H%'`)).toHaveLength(9);
  });

  it('statements in flight carry at most STATEMENT_CHARS of big texts together (one alone always leaves)', async () => {
    const mostAtOnce = async (prefix: string, chars: number) => {
      let now = 0;
      let most = 0;
      const checked = items(prefix, 6);
      // Every row ready at once: only the bounds hold statements back.
      await writeBatch(
        db,
        checked.length,
        { first: 1, slices: () => [checked] },
        {
          chunkSize: 1,
          idOf: (r) => r.id,
          charsOf: () => chars,
          write: async (tx, rows) => {
            most = Math.max(most, ++now);
            await new Promise((resolve) => setTimeout(resolve, 10));
            const n = await insertRows(tx, rows);
            now -= 1;
            return n;
          },
          inFlight: 4,
        },
      );
      return most;
    };
    expect(await mostAtOnce('I', Math.floor(STATEMENT_CHARS * 0.3))).toBe(3);
    expect(await mostAtOnce('J', Math.floor(STATEMENT_CHARS * 0.6))).toBe(1);
    expect(await mostAtOnce('K', STATEMENT_CHARS * 2)).toBe(1);
    expect(await mostAtOnce('L', 0)).toBe(4);
  });

  it('a statement that fails among several in flight: nothing more leaves, all of it rolled back', async () => {
    const before = await stored();
    const events: string[] = [];
    const checked = items('M', 8);
    // Every row ready at once: three statements leave together.
    const failing = writeBatch(
      db,
      checked.length,
      { first: 1, slices: () => [checked] },
      {
        chunkSize: 1,
        idOf: (r) => r.id,
        write: async (tx, rows) => {
          events.push(`write ${rows[0]?.n}`);
          if (rows[0]?.n === 1) {
            await tx.query('SELECT 1/0').catch((err: unknown) => {
              events.push('failed 1');
              throw err;
            });
          }
          return insertRows(tx, rows);
        },
        inFlight: 3,
      },
    );
    await expect(failing).rejects.toThrow(/division by zero/);
    // Three left together; the end of the first may send one more before the failure is known.
    expect(events.slice(0, 3)).toEqual(['write 0', 'write 1', 'write 2']);
    const failed = events.indexOf('failed 1');
    expect(failed).toBeGreaterThan(2);
    expect(events.slice(failed + 1)).toEqual([]);
    expect(events.length).toBeLessThanOrEqual(5);
    expect(await stored()).toEqual(before);
  });

  it('one statement at a time on the embedded database (same thread), four on PostgreSQL; transactions in statements of 250 there', () => {
    expect(statementsInFlight('pglite')).toBe(1);
    expect(statementsInFlight('postgres')).toBe(4);
    expect(transactionsPerStatement('pglite')).toBe(TRANSACTIONS_PER_STATEMENT);
    expect(transactionsPerStatement('postgres')).toBe(250);
  });
});

describe('streamedSlices: rows a worker posts as it checks them', () => {
  /** A worker stand-in: its port, and its task, ended by hand. */
  function worker() {
    const { port1, port2 } = new MessageChannel();
    let end: (err?: unknown) => void = () => {};
    const done = new Promise<void>((resolve, reject) => (end = (err) => (err ? reject(err) : resolve())));
    return { port: port1, post: (m: unknown) => port2.postMessage(m), end, done };
  }
  const write = (events: string[]) => async (tx: Queryable, rows: Item[]) => {
    events.push(`write ${rows.map((r) => r.n).join(',')}`);
    return insertRows(tx, rows);
  };

  it('the first statement leaves before the worker has checked the rest; then whole chunks, in order', async () => {
    const w = worker();
    const source = streamedSlices<Item>(w.port, 1, w.done);
    const sent = items('S', 5);
    w.post({ count: 5 });
    expect(await source.count).toBe(5);
    w.post({ rows: sent.slice(0, 1) });
    const events: string[] = [];
    const answer = writeBatch(as('postgres'), 5, source, {
      chunkSize: 2,
      idOf: (r) => r.id,
      write: write(events),
    });
    await vi.waitFor(() => expect(events).toEqual(['write 0']));
    w.post({ rows: sent.slice(1, 3) });
    w.post({ rows: [...sent.slice(3), { id: 'S1', n: 9 }] });
    w.post({ issues: [] });
    w.end();
    expect(await answer).toEqual({ inserted: 5, duplicates: 0 });
    expect(events).toEqual(['write 0', 'write 1,2', 'write 3,4']);
    w.port.close();
  });

  it('faults the worker found (its last message): the 400 naming them, what was written rolled back', async () => {
    const before = await stored();
    const w = worker();
    const source = streamedSlices<Item>(w.port, 1, w.done);
    w.post({ count: 6 });
    w.post({ rows: items('T', 3) });
    w.post({
      issues: [
        { path: 'items[4].n', message: 'invalide' },
        { path: 'items[5].n', message: 'invalide' },
      ],
    });
    w.end();
    const events: string[] = [];
    const err = await writeBatch(db, await source.count, source, {
      chunkSize: 2,
      idOf: (r) => r.id,
      write: write(events),
    }).catch((e: unknown) => e);
    expect((err as AppError).status).toBe(400);
    expect((err as AppError).message).toBe(
      'Requête invalide\u00a0: items[4].n\u00a0: invalide\u202f; items[5].n\u00a0: invalide',
    );
    expect(events.length).toBeGreaterThan(0);
    expect(await stored()).toEqual(before);
    w.port.close();
  });

  it('slices that stop while a statement is in flight: nothing more is sent, nothing stays written', async () => {
    const before = await stored();
    const w = worker();
    const source = streamedSlices<Item>(w.port, 1, w.done);
    w.post({ count: 6 });
    w.post({ rows: items('V', 1) });
    const events: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const answer = writeBatch(db, await source.count, source, {
      chunkSize: 2,
      idOf: (r) => r.id,
      write: async (tx, rows) => {
        events.push(`write ${rows.map((r) => r.n).join(',')}`);
        const n = await insertRows(tx, rows);
        if (events.length === 1) await held;
        return n;
      },
    }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(events).toEqual(['write 0']));
    // Two more rows ready (a whole chunk) while the first statement is held, then the body is
    // found unreadable: the chunk must not leave, before or after the rollback.
    w.post({ rows: items('V', 3).slice(1) });
    await new Promise((resolve) => setTimeout(resolve, 20));
    w.end(new AppError(400, 'Le corps de la requête n’est pas un JSON valide.', 'invalid-request'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    expect(((await answer) as AppError).status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toEqual(['write 0']);
    expect(await stored()).toEqual(before);
    w.port.close();
  });

  it('a worker that fails: before the count, no count (no transaction); after, the batch rolled back', async () => {
    const refused = worker();
    const early = streamedSlices<Item>(refused.port, 1, refused.done);
    refused.end(new AppError(400, 'Le corps de la requête n’est pas un JSON valide.', 'invalid-request'));
    await expect(early.count).rejects.toThrow('JSON');
    refused.port.close();

    const before = await stored();
    const w = worker();
    const source = streamedSlices<Item>(w.port, 1, w.done);
    w.post({ count: 4 });
    w.post({ rows: items('U', 2) });
    const answer = writeBatch(db, await source.count, source, {
      chunkSize: 2,
      idOf: (r) => r.id,
      write: (tx, rows) => insertRows(tx, rows),
    });
    setTimeout(() => w.end(new Error('fil de travail arrêté')), 50);
    await expect(answer).rejects.toThrow('fil de travail arrêté');
    expect(await stored()).toEqual(before);
    w.port.close();
  });
});
