import type { Db } from './types.ts';

/**
 * The embedded database's autovacuum. PGlite runs PostgreSQL in one process without its
 * background workers: nothing vacuums or analyses the tables the connector and the screens change.
 * Without VACUUM, deleted and updated rows stay, and counts cannot be read from an index alone
 * (docs/history.md, The embedded database); without ANALYZE, the planner chooses on statistics of
 * another size. This does what autovacuum would, with its default thresholds, at intervals: a table
 * is vacuumed (with ANALYZE) once its dead rows, or the rows inserted since its last VACUUM, pass
 * a fifth of its rows, and only analysed once a tenth of its rows changed. A VACUUM reads the
 * pages changed since the previous one, so its cost follows what changed, not the table's size; it
 * holds the database's one thread meanwhile, which the thresholds keep rare.
 */

/** autovacuum's defaults (PostgreSQL 17). */
export const UPKEEP_THRESHOLDS = {
  vacuumBase: 50,
  vacuumScale: 0.2,
  insertBase: 1000,
  insertScale: 0.2,
  analyzeBase: 50,
  analyzeScale: 0.1,
} as const;

export interface TableActivity {
  table: string;
  live: number;
  dead: number;
  insertedSinceVacuum: number;
  modifiedSinceAnalyze: number;
}

export type UpkeepAction = 'vacuum' | 'analyze' | null;

/** What a table needs, by autovacuum's rules. */
export function upkeepOf(activity: TableActivity, t = UPKEEP_THRESHOLDS): UpkeepAction {
  const { live } = activity;
  if (
    activity.dead > t.vacuumBase + t.vacuumScale * live ||
    activity.insertedSinceVacuum > t.insertBase + t.insertScale * live
  )
    return 'vacuum';
  if (activity.modifiedSinceAnalyze > t.analyzeBase + t.analyzeScale * live) return 'analyze';
  return null;
}

/** The activity of every table of the public schema, the pending counts included. */
async function tableActivity(db: Db): Promise<TableActivity[]> {
  // PostgreSQL publishes a backend's counts when it is idle; PGlite never is, so they are asked
  // for: the next statement publishes them.
  await db.query('SELECT pg_stat_force_next_flush()');
  await db.query('SELECT 1');
  const rows = await db.query<{ table: string; live: string; dead: string; ins: string; mod: string }>(
    `SELECT relname AS "table", n_live_tup AS live, n_dead_tup AS dead,
            n_ins_since_vacuum AS ins, n_mod_since_analyze AS mod
     FROM pg_stat_user_tables WHERE schemaname = 'public' ORDER BY relname`,
  );
  return rows.map((r) => ({
    table: r.table,
    live: Number(r.live),
    dead: Number(r.dead),
    insertedSinceVacuum: Number(r.ins),
    modifiedSinceAnalyze: Number(r.mod),
  }));
}

export interface UpkeepRun {
  table: string;
  action: 'vacuum' | 'analyze';
  ms: number;
}

/** One pass: each table that needs it is vacuumed or analysed, one at a time. */
export async function runEmbeddedUpkeep(db: Db): Promise<UpkeepRun[]> {
  const done: UpkeepRun[] = [];
  for (const activity of await tableActivity(db)) {
    const action = upkeepOf(activity);
    if (!action) continue;
    // Names come from the catalogue; quoted all the same.
    const name = `"${activity.table.replace(/"/g, '""')}"`;
    const started = performance.now();
    await db.exec(action === 'vacuum' ? `VACUUM (ANALYZE) ${name}` : `ANALYZE ${name}`);
    done.push({ table: activity.table, action, ms: Math.round(performance.now() - started) });
  }
  return done;
}

export interface EmbeddedUpkeep {
  /** Stops the timer and waits for a pass under way. */
  stop(): Promise<void>;
}

/**
 * Runs a pass every `intervalMs` (10 minutes by default) on the embedded database; `report`
 * receives what each pass did (nothing when nothing was needed) or why it failed.
 */
export function startEmbeddedUpkeep(
  db: Db,
  report: (runs: UpkeepRun[] | Error) => void,
  intervalMs = 10 * 60_000,
): EmbeddedUpkeep {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = runEmbeddedUpkeep(db)
      .then((runs) => {
        if (runs.length > 0) report(runs);
      })
      .catch((err: unknown) => report(err instanceof Error ? err : new Error(String(err))))
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
