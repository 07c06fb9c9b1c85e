import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/helpers/db.ts';
import { inPostgresPass } from '../../test/helpers/passes.ts';
import { runEmbeddedUpkeep, startEmbeddedUpkeep, upkeepOf, type UpkeepRun } from './embedded-upkeep.ts';
import type { Db } from './types.ts';

const quiet = { table: 't', live: 1000, dead: 0, insertedSinceVacuum: 0, modifiedSinceAnalyze: 0 };

describe('embedded upkeep: what a table needs (autovacuum thresholds)', () => {
  it('vacuums past 50 + 20 % dead rows, or 1 000 + 20 % rows inserted since the last VACUUM', () => {
    expect(upkeepOf(quiet)).toBeNull();
    expect(upkeepOf({ ...quiet, dead: 250 })).toBeNull();
    expect(upkeepOf({ ...quiet, dead: 251 })).toBe('vacuum');
    expect(upkeepOf({ ...quiet, insertedSinceVacuum: 1200 })).toBeNull();
    expect(upkeepOf({ ...quiet, insertedSinceVacuum: 1201 })).toBe('vacuum');
  });

  it('only analyses past 50 + 10 % rows changed since the last ANALYZE', () => {
    expect(upkeepOf({ ...quiet, modifiedSinceAnalyze: 150 })).toBeNull();
    expect(upkeepOf({ ...quiet, modifiedSinceAnalyze: 151 })).toBe('analyze');
  });
});

// PostgreSQL has its own autovacuum; the upkeep runs on the embedded database only.
describe.skipIf(inPostgresPass)('embedded upkeep on PGlite', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDb();
  });
  afterAll(async () => {
    await db.close();
  });

  const stats = async (table: string) =>
    (
      await db.query<{ dead: number; vacuumed: boolean; analysed: boolean }>(
        `SELECT n_dead_tup::int AS dead, last_vacuum IS NOT NULL AS vacuumed,
                last_analyze IS NOT NULL AS analysed
         FROM pg_stat_user_tables WHERE relname = $1`,
        [table],
      )
    )[0];

  it('vacuums a table with many dead rows, analyses one changed a little, then has nothing to do', async () => {
    await db.exec(`CREATE TABLE upkeep_churn (id int PRIMARY KEY, v text);
      INSERT INTO upkeep_churn SELECT g, 'x' || g FROM generate_series(1, 5000) g;
      CREATE TABLE upkeep_steady (id int PRIMARY KEY, v text);
      INSERT INTO upkeep_steady SELECT g, 'x' || g FROM generate_series(1, 5000) g;`);
    // Both vacuumed once (their inserts), so that only what follows counts.
    const first = await runEmbeddedUpkeep(db);
    expect(first).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ table: 'upkeep_churn', action: 'vacuum' }),
        expect.objectContaining({ table: 'upkeep_steady', action: 'vacuum' }),
      ]),
    );

    await db.exec(`DELETE FROM upkeep_churn WHERE id % 2 = 0;
      UPDATE upkeep_steady SET v = 'y' WHERE id <= 600;`);
    const runs = await runEmbeddedUpkeep(db);
    const byTable = new Map(runs.map((r) => [r.table, r.action]));
    // 2 500 dead of 5 000 → VACUUM; 600 changed of 5 000 (more than 550, under 1 050 dead) → ANALYZE.
    expect(byTable.get('upkeep_churn')).toBe('vacuum');
    expect(byTable.get('upkeep_steady')).toBe('analyze');
    expect(await stats('upkeep_churn')).toMatchObject({ dead: 0, vacuumed: true, analysed: true });

    expect(await runEmbeddedUpkeep(db)).toEqual([]);
  });

  it('runs at intervals, reports what it did, and stops', async () => {
    await db.exec(`CREATE TABLE upkeep_timer (id int PRIMARY KEY);
      INSERT INTO upkeep_timer SELECT g FROM generate_series(1, 3000) g;`);
    const reports: (UpkeepRun[] | Error)[] = [];
    const upkeep = startEmbeddedUpkeep(db, (r) => reports.push(r), 20);
    await expect.poll(() => reports.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await upkeep.stop();
    const count = reports.length;
    expect(reports[0]).toEqual(
      expect.arrayContaining([expect.objectContaining({ table: 'upkeep_timer', action: 'vacuum' })]),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reports.length).toBe(count);
  });
});
