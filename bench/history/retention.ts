/**
 * The cost of the history retention (HISTORY_RETENTION_DAYS, domain/history-retention.ts) on the
 * PostgreSQL data of bench/history (`run.ts` seeds it): the oldest `--delete` records and
 * transactions of the measured installation are deleted by `npm run admin -- prune-history` (the
 * retention's own batches, sized to about 20 ms and cancelled at 50 ms; the built server: `npm run build -w
 * @synchro/server`), while a probe on another connection asks, one after the other, what requests ask at the
 * same time: the first page of the history, the page of the oldest rows (the very rows being
 * deleted) and a connector write of a new record into the same installation. The probe runs first
 * alone (the floor), then during the retention; a third connection watches each connector write's
 * backend and tells which of them waited for a lock (a counter row a batch held until its commit)
 * and what its holder was doing then.
 * Destructive: the rows deleted are gone (re-seed).
 *
 *   npx tsx bench/history/retention.ts [--delete 200000]
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { describeMachine } from '../config-xml/machine.ts';
import { percentile } from './raw.ts';
import { BENCH_DB, postgresUrl, REPO, SYNC_ID } from './targets.ts';

interface Db {
  query: <T>(sql: string, params: unknown[]) => Promise<T[]>;
  close: () => Promise<void>;
}

async function open(url: string): Promise<Db> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    query: async <T>(sql: string, params: unknown[]) => (await client.query(sql, params)).rows as T[],
    close: () => client.end(),
  };
}

/** What prune-history prints: its counts and batch times, and whether the pass was deferred. */
interface PruneSummary {
  records: number;
  transactions: number;
  batches: number;
  cancelled: number;
  deferred: boolean;
  longestBatchMs: number;
  batchMsP50: number;
  batchMsP95: number;
}

/** prune-history of the built admin command; its JSON summary. */
function pruneHistory(url: string, days: number): Promise<PruneSummary> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['apps/server/dist/cli.js', 'prune-history', '--days', String(days)],
      {
        cwd: REPO,
        env: { ...process.env, DATABASE_URL: url },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as PruneSummary) : reject(new Error(`prune-history: ${code}`)),
    );
  });
}

const { values: args } = parseArgs({ options: { delete: { type: 'string', default: '200000' } } });
const DELETE = Number(args.delete);

const probes = {
  'first page': (db: Db, id: string) =>
    db.query(
      `SELECT id, id_interne, date_heure, etat FROM import_records WHERE installation_id = $1
       ORDER BY date_heure DESC, id DESC LIMIT 25`,
      [id],
    ),
  'oldest page': (db: Db, id: string) =>
    db.query(
      `SELECT id, id_interne, date_heure, etat FROM import_records WHERE installation_id = $1
       ORDER BY date_heure, id LIMIT 25`,
      [id],
    ),
  'connector write': (db: Db, id: string, n: number) =>
    db.query(
      `INSERT INTO import_records (installation_id, id_interne, date_heure, etat, enreg)
       VALUES ($1, $2, now(), 0, '<x/>') ON CONFLICT (installation_id, id_interne) DO NOTHING`,
      [id, `RETENTION-PROBE-${Date.now()}-${n}`],
    ),
};

/**
 * What the probe's backend waited for while `running` was pending: its state read on another
 * connection, one read after the other, until `running` settles. Each lock wait is named by what
 * its blocker was doing (its state, wait event and the first words of its statement: a batch's
 * DELETE, or its COMMIT waiting for the disk); an empty list: no lock waited for.
 */
async function lockBlockers(watcher: Db, pid: number, running: Promise<unknown>): Promise<string[]> {
  let settled = false;
  const blockers = new Set<string>();
  void running.finally(() => (settled = true));
  while (!settled) {
    const [row] = await watcher.query<{ lock: boolean; blockers: string | null }>(
      `SELECT a.wait_event_type = 'Lock' AS lock,
              (SELECT string_agg(b.state || ' ' || coalesce(b.wait_event, '-') || ' ' ||
                                 split_part(ltrim(b.query), ' ', 1), ', ')
                 FROM pg_stat_activity b WHERE b.pid = ANY (pg_blocking_pids(a.pid))) AS blockers
         FROM pg_stat_activity a WHERE a.pid = $1`,
      [pid],
    );
    if (row?.lock) blockers.add(row.blockers ?? 'gone');
  }
  return [...blockers];
}

interface ProbeSamples {
  /** ms per request, by probe. */
  ms: Record<string, number[]>;
  /** ms of the connector writes that waited for a lock (a row a retention batch held). */
  lockWaits: number[];
  /** What those writes waited for (lockBlockers), and how many times. */
  blockers: Map<string, number>;
}

async function probe(
  db: Db,
  watcher: Db,
  pid: number,
  id: string,
  until: () => boolean,
  minRuns: number,
): Promise<ProbeSamples> {
  const samples: ProbeSamples = { ms: {}, lockWaits: [], blockers: new Map() };
  for (let n = 0; n < minRuns || !until(); n++) {
    for (const [name, run] of Object.entries(probes)) {
      const t = performance.now();
      const running = run(db, id, n);
      const blockers = name === 'connector write' ? await lockBlockers(watcher, pid, running) : [];
      await running;
      const ms = performance.now() - t;
      (samples.ms[name] ??= []).push(ms);
      if (blockers.length > 0) samples.lockWaits.push(ms);
      for (const b of blockers) samples.blockers.set(b, (samples.blockers.get(b) ?? 0) + 1);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return samples;
}

async function main() {
  const url = postgresUrl(BENCH_DB);
  const db = await open(url);
  const probeDb = await open(url);
  const watcher = await open(url);
  try {
    const [me] = await probeDb.query<{ pid: number }>('SELECT pg_backend_pid() AS pid', []);
    if (!me) throw new Error('no backend pid for the probe');
    const pid = me.pid;
    const [inst] = await db.query<{ id: string }>('SELECT id FROM installations WHERE sync_id = $1', [
      SYNC_ID,
    ]);
    if (!inst) throw new Error('bench/history data missing: run bench/history/run.ts first');
    const [sizes] = await db.query<{ records: number; transactions: number }>(
      `SELECT (SELECT count(*)::int FROM import_records WHERE installation_id = $1) AS records,
              (SELECT count(*)::int FROM transaction_logs WHERE installation_id = $1) AS transactions`,
      [inst.id],
    );
    // The retention in days that removes about the DELETE oldest records (whole days).
    const [cut] = await db.query<{ at: Date }>(
      `SELECT date_heure AS at FROM import_records WHERE installation_id = $1
       ORDER BY date_heure, id OFFSET $2 LIMIT 1`,
      [inst.id, DELETE],
    );
    if (!cut) throw new Error('not enough rows');
    const days = Math.floor((Date.now() - new Date(cut.at).getTime()) / 86_400_000);
    const machine = describeMachine();
    console.log(`${machine}; ${sizes?.records} records, ${sizes?.transactions} transactions`);

    const floor = await probe(probeDb, watcher, pid, inst.id, () => true, 100);
    let done = false;
    const started = performance.now();
    const pruning = pruneHistory(url, days).finally(() => (done = true));
    const during = await probe(probeDb, watcher, pid, inst.id, () => done, 100);
    const result = await pruning;
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `HISTORY_RETENTION_DAYS=${days}: deleted ${result.records} records + ${result.transactions} transactions ` +
        `in ${seconds.toFixed(1)} s (${Math.round(((result.records ?? 0) + (result.transactions ?? 0)) / seconds)} rows/s ` +
        `with the 50 ms pauses), ${result.batches} batches: ms p50 ${result.batchMsP50} p95 ${result.batchMsP95} ` +
        `max ${result.longestBatchMs}; cancelled at the limit: ${result.cancelled}` +
        (result.deferred ? ' (pass deferred)' : ''),
    );
    console.log('| request | alone p50 / p95 / max (ms) | during the retention p50 / p95 / max (ms) |');
    console.log('|---|---:|---:|');
    for (const name of Object.keys(probes)) {
      const f = floor.ms[name] ?? [];
      const d = during.ms[name] ?? [];
      const fmt = (s: number[]) =>
        `${percentile(s, 50).toFixed(1)} / ${percentile(s, 95).toFixed(1)} / ${Math.max(...s).toFixed(1)}`;
      console.log(`| ${name} | ${fmt(f)} | ${fmt(d)} (${d.length} runs) |`);
    }
    const waits = during.lockWaits;
    console.log(
      `connector writes that waited for a lock during the retention: ${waits.length} of ` +
        `${during.ms['connector write']?.length ?? 0}` +
        (waits.length > 0
          ? `, their ms p50 ${percentile(waits, 50).toFixed(1)} / max ${Math.max(...waits).toFixed(1)}`
          : '') +
        ` (alone: ${floor.lockWaits.length})`,
    );
    const blockers = [...during.blockers].sort((a, b) => b[1] - a[1]);
    if (blockers.length > 0)
      console.log(`what they waited for: ${blockers.map(([b, n]) => `${b} ×${n}`).join('; ')}`);
    await db.query(
      `DELETE FROM import_records WHERE installation_id = $1 AND id_interne LIKE 'RETENTION-PROBE-%'`,
      [inst.id],
    );
  } finally {
    await db.close();
    await probeDb.close();
    await watcher.close();
  }
}

await main();
