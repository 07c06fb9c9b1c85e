import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/helpers/db.ts';
import { acquireDataDirLock, LOCK_FILE_NAME } from './lock.ts';
import { loadMigrations, migrate } from './migrate.ts';
import { openDatabase } from './open.ts';
import type { Db } from './types.ts';

describe('migrations', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDb();
  });
  afterAll(async () => {
    await db.close();
  });

  it('records every migration file once', async () => {
    const rows = await db.query<{ version: number }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    expect(rows.map((r) => r.version)).toEqual(loadMigrations().map((m) => m.version));
  });

  it('is idempotent: a second run applies nothing and keeps the data', async () => {
    await db.query(`INSERT INTO installations (sync_id, client_id_hash) VALUES ('KEEPME1', 'x')`);
    expect(await migrate(db)).toEqual([]);
    const rows = await db.query('SELECT sync_id FROM installations');
    expect(rows).toHaveLength(1);
  });

  it('rolls back a failing migration entirely', async () => {
    const broken = [
      ...loadMigrations(),
      { version: 998, name: 'ok-part', sql: 'CREATE TABLE should_vanish (x int);' },
      { version: 999, name: 'broken', sql: 'CREATE TABLE nope (x no_such_type);' },
    ];
    await expect(migrate(db, broken)).rejects.toThrow();
    const rows = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM schema_migrations WHERE version >= 998`,
    );
    expect(rows[0]?.n).toBe(0);
    await expect(db.query('SELECT * FROM should_vanish')).rejects.toThrow();
  });

  it('rejects a sync id outside A-Z0-9 at the database level too', async () => {
    await expect(
      db.query(`INSERT INTO installations (sync_id, client_id_hash) VALUES ('bad-id', 'x')`),
    ).rejects.toThrow();
  });
});

describe('prepared statements', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDb();
    await db.exec(`CREATE TABLE prep_t (k text PRIMARY KEY, at timestamptz, n int, b boolean, note text)`);
    await db.query(`INSERT INTO prep_t VALUES ('a', '2025-03-09T07:09:52.542Z', 3, true, NULL)`);
  });
  afterAll(async () => {
    await db.close();
  });
  const sql = 'SELECT k, at, n, b, note FROM prep_t WHERE k = $1 AND at <= $2';

  it('give the rows and types of an unprepared query, run after run', async () => {
    const params = ['a', new Date('2026-01-01T00:00:00Z')];
    const plain = await db.query(sql, params);
    expect(plain).toHaveLength(1);
    for (let i = 0; i < 3; i += 1)
      expect(await db.query(sql, params, { prepare: 'prep_t_get' })).toEqual(plain);
    expect(await db.query(sql, ['b', params[1]], { prepare: 'prep_t_get' })).toEqual([]);
  });

  it('a failing run leaves the statement and the database usable', async () => {
    const failing = 'SELECT 1 / n AS q FROM prep_t WHERE k = $1';
    await db.query(`INSERT INTO prep_t VALUES ('zero', now(), 0, false, 'x')`);
    await expect(db.query(failing, ['zero'], { prepare: 'prep_t_div' })).rejects.toThrow(/division by zero/);
    expect(await db.query(failing, ['a'], { prepare: 'prep_t_div' })).toEqual([{ q: 0 }]);
    expect(await db.query('SELECT count(*)::int AS c FROM prep_t')).toEqual([{ c: 2 }]);
  });

  it('do not see the uncommitted writes of an open transaction', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted = () => {};
    const insertedOnce = new Promise<void>((resolve) => (inserted = resolve));
    const tx = db.transaction(async (t) => {
      await t.query(`INSERT INTO prep_t VALUES ('c', now(), 1, true, NULL)`);
      inserted();
      await held;
      throw new Error('rolled back');
    });
    await insertedOnce;
    const read = db.query('SELECT k FROM prep_t WHERE k = $1', ['c'], { prepare: 'prep_t_k' });
    release();
    await expect(tx).rejects.toThrow('rolled back');
    expect(await read).toEqual([]);
  });

  it('refuse one name for two texts', async () => {
    if (db.kind !== 'pglite') return; // node-postgres has its own check, per connection
    await db.query('SELECT 1 AS one', [], { prepare: 'prep_one' });
    await expect(db.query('SELECT 2 AS two', [], { prepare: 'prep_one' })).rejects.toThrow(/another text/);
  });
});

describe('data folder lock', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'synchro-lock-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('refuses a second owner with a French message, and frees the folder on release', () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE_NAME), 'utf8')).pid).toBe(process.pid);
    expect(() => acquireDataDirLock(dir)).toThrow(/déjà (utilisé|ouvert)/);
    lock.release();
    acquireDataDirLock(dir).release();
  });

  it('refuses while another live process holds the lock', () => {
    const dir = tempDir();
    // The parent process of this test is alive for the whole test.
    writeFileSync(
      join(dir, LOCK_FILE_NAME),
      JSON.stringify({ pid: process.ppid, host: hostname(), startedAt: '' }),
    );
    expect(() => acquireDataDirLock(dir)).toThrow(`PID ${process.ppid}`);
  });

  it('takes over a stale lock whose process is gone', () => {
    const dir = tempDir();
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid;
    writeFileSync(join(dir, LOCK_FILE_NAME), JSON.stringify({ pid: dead, host: hostname(), startedAt: '' }));
    const lock = acquireDataDirLock(dir);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE_NAME), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('a second open of the same embedded database is refused, the first keeps working', async () => {
    const dir = tempDir();
    const db = await openDatabase({ dataDir: dir });
    try {
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/déjà/);
      expect(await db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
    // Reopening after close works and finds the migrated schema.
    const again = await openDatabase({ dataDir: dir });
    const rows = await again.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
    expect(rows[0]?.n).toBe(loadMigrations().length);
    await again.close();
  });
});

describe('concurrent migrators', () => {
  it('two migrations started together on one database both succeed and apply once', async () => {
    const db = await openTestDb();
    try {
      const extra = [
        ...loadMigrations(),
        { version: 900, name: 'extra', sql: 'CREATE TABLE extra_once (x int);' },
      ];
      const [a, b] = await Promise.all([migrate(db, extra), migrate(db, extra)]);
      expect([...(a ?? []), ...(b ?? [])]).toEqual([900]);
    } finally {
      await db.close();
    }
  });
});
