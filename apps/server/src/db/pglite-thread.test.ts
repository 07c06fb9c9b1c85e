import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inPostgresPass } from '../../test/helpers/passes.ts';
import { openPgliteInThread } from './pglite-thread.ts';
import type { Db } from './types.ts';

describe.skipIf(inPostgresPass)('the embedded database in a thread of its own', () => {
  let dir: string;
  let db: Db;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pglite-thread-'));
    db = await openPgliteInThread(join(dir, 'pglite'));
    await db.exec('CREATE TABLE t (id int PRIMARY KEY, label text, at timestamptz, big bigint, raw bytea)');
  });
  afterAll(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sets a transaction’s settings inside it only (SET LOCAL)', async () => {
    const read = (q: Pick<Db, 'query'>) =>
      q.query<{ v: string | null }>(`SELECT current_setting('synchro.batch_counts', true) AS v`);
    expect((await db.transaction(read, { 'synchro.batch_counts': 'on' }))[0]?.v).toBe('on');
    expect((await read(db))[0]?.v ?? '').toBe('');
    expect((await db.transaction(read))[0]?.v ?? '').toBe('');
  });

  it('answers with the same values as in the server’s thread (dates, bigints, bytes, arrays)', async () => {
    const at = new Date('2025-11-14T09:12:00.000Z');
    await db.query('INSERT INTO t VALUES ($1, $2, $3, $4, $5)', [
      1,
      'été',
      at,
      '9007199254740993',
      new Uint8Array([0, 255]),
    ]);
    const [row] = await db.query<Record<string, unknown>>('SELECT * FROM t WHERE id = $1', [1]);
    expect(row?.label).toBe('été');
    expect(row?.at).toEqual(at);
    expect(String(row?.big)).toBe('9007199254740993');
    expect([...(row?.raw as Uint8Array)]).toEqual([0, 255]);
    const [list] = await db.query<{ ids: number[] }>(
      'SELECT array_agg(x) AS ids FROM generate_series(1, 3) x',
    );
    expect(list?.ids).toEqual([1, 2, 3]);
  });

  it('keeps a database error’s code and fields (callers test them)', async () => {
    const err = await db.query('INSERT INTO t (id) VALUES (1)').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ code: '23505', table: 't' });
    expect((err as Error).message).toMatch(/duplicate key/);
  });

  it('commits a transaction that resolves, rolls back one that throws, runs prepared statements', async () => {
    const kept = await db.transaction(async (tx) => {
      await tx.query("INSERT INTO t (id, label) VALUES (2, 'kept')");
      return (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM t'))[0]?.n;
    });
    expect(kept).toBe(2);
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO t (id, label) VALUES (3, 'lost')");
        throw new Error('refusé');
      }),
    ).rejects.toThrow('refusé');
    const labels = await db.query<{ label: string }>('SELECT label FROM t WHERE id > 1 ORDER BY id', [], {
      prepare: 'thread_test_labels',
    });
    expect(labels.map((r) => r.label)).toEqual(['kept']);
  });

  it('statements from outside wait for an open transaction, as PGlite orders them', async () => {
    const order: string[] = [];
    const inside = db.transaction(async (tx) => {
      await tx.query("INSERT INTO t (id, label) VALUES (4, 'in')");
      await new Promise((r) => setTimeout(r, 50));
      order.push('transaction done');
    });
    await new Promise((r) => setTimeout(r, 10));
    const outside = db.query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE id = 4').then((rows) => {
      order.push('outside read');
      return rows[0]?.n;
    });
    await inside;
    expect(await outside).toBe(1);
    expect(order).toEqual(['transaction done', 'outside read']);
  });

  it('tells a NOTIFY before the answer of the statement or transaction that committed it', async () => {
    const heard: string[] = [];
    await db.listen?.('thread_test_channel', (payload) => heard.push(payload));
    await db.query("SELECT pg_notify('thread_test_channel', 'one')");
    expect(heard).toEqual(['one']);
    await db.transaction(async (tx) => {
      await tx.query("SELECT pg_notify('thread_test_channel', 'two')");
      // Delivered at commit, not before.
      expect(heard).toEqual(['one']);
    });
    expect(heard).toEqual(['one', 'two']);
    await db
      .transaction(async (tx) => {
        await tx.query("SELECT pg_notify('thread_test_channel', 'rolled back')");
        throw new Error('annulé');
      })
      .catch(() => {});
    await db.query("SELECT pg_notify('other_channel', 'not heard')");
    expect(heard).toEqual(['one', 'two']);
  });

  it('a long statement holds its thread, not the request thread', async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 1);
    const statement = db.query('SELECT count(*) FROM generate_series(1, 3000000) a, generate_series(1, 2) b');
    let ticksWhileRunning = 0;
    let done = false;
    void statement.finally(() => (done = true));
    while (!done) {
      await new Promise((r) => setTimeout(r, 5));
      if (!done) ticksWhileRunning = ticks;
    }
    clearInterval(timer);
    await statement;
    // In the request thread, PGlite runs a statement synchronously: no timer fires meanwhile.
    expect(ticksWhileRunning).toBeGreaterThan(5);
  });
});
