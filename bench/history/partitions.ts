/**
 * Storage layout of the history at 10 000 000 rows (issue 18: « choose partitions by month or
 * indexes by measuring both »), on the PostgreSQL data of bench/history (`run.ts` seeds it):
 *
 * 1. A copy of import_records and transaction_logs partitioned by month of their time column
 *    (schema bench_partitions, every row of every installation, the same secondary indexes built
 *    on the partitioned tables), beside the tables the product uses (one table each, indexes).
 * 2. The statements the server runs for every list case (cases.ts), raw, on both layouts: the
 *    same connection parameters, the layouts alternating round after round, the same rows
 *    checked; p50 and p95 of each.
 * 3. The retention's cost on the partitioned layout: the oldest month of every installation
 *    removed by DETACH PARTITION … CONCURRENTLY then DROP TABLE, while a probe asks the first page
 *    and writes a row (the cost on the product's layout: retention.ts, the retention's own code).
 *
 *   npx tsx bench/history/partitions.ts [--runs 40] [--rebuild] [--no-drop]
 *
 * The copy is kept between runs (--rebuild makes it again); step 3 removes a month of the copy.
 */
import { parseArgs } from 'node:util';
import { describeMachine } from '../config-xml/machine.ts';
import { cases, LISTS, type CaseSpec, type ListSpec } from './cases.ts';
import { inputsOf, percentile, runStatements } from './raw.ts';
import { postgres, SYNC_ID, type RawDb } from './targets.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '40' },
    rebuild: { type: 'boolean', default: false },
    'no-drop': { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
const SCHEMA = 'bench_partitions';
const TABLES: { list: ListSpec; time: string }[] = [
  { list: LISTS.history, time: 'date_heure' },
  { list: LISTS.trace, time: 'date_heure_trt' },
];

async function timed<T>(task: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const value = await task();
  return [performance.now() - t0, value];
}

/** The copy: partitioned by month (no default partition: DETACH CONCURRENTLY refuses one). */
async function build(db: RawDb): Promise<void> {
  await db.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`, []);
  await db.query(`CREATE SCHEMA ${SCHEMA}`, []);
  await db.query(`SET maintenance_work_mem = '1GB'`, []);
  for (const { list, time } of TABLES) {
    const table = list.table;
    const [span] = await db.query<{ first: string; months: number }>(
      `SELECT date_trunc('month', min(${time}) AT TIME ZONE 'UTC')::date::text AS first,
              (extract(year FROM age(date_trunc('month', max(${time}) AT TIME ZONE 'UTC'),
                                     date_trunc('month', min(${time}) AT TIME ZONE 'UTC'))) * 12 +
               extract(month FROM age(date_trunc('month', max(${time}) AT TIME ZONE 'UTC'),
                                      date_trunc('month', min(${time}) AT TIME ZONE 'UTC'))))::int + 2 AS months
       FROM public.${table}`,
      [],
    );
    if (!span) throw new Error(`${table} : aucune ligne`);
    // Without the unique keys: a partitioned table keeps one only with the partition key in it.
    await db.query(
      `CREATE TABLE ${SCHEMA}.${table} (LIKE public.${table} INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING CONSTRAINTS)
       PARTITION BY RANGE (${time})`,
      [],
    );
    for (let m = 0; m < span.months; m++) {
      await db.query(
        `CREATE TABLE ${SCHEMA}.${table}_m${String(m).padStart(2, '0')} PARTITION OF ${SCHEMA}.${table}
         FOR VALUES FROM ((('${span.first}'::date + make_interval(months => ${m}))::timestamp AT TIME ZONE 'UTC'))
                     TO ((('${span.first}'::date + make_interval(months => ${m + 1}))::timestamp AT TIME ZONE 'UTC'))`,
        [],
      );
    }
    const columns = await db.query<{ name: string }>(
      `SELECT column_name AS name FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`,
      [table],
    );
    const columnList = columns.map((c) => c.name).join(', ');
    const [copyMs] = await timed(() =>
      db.query(
        `INSERT INTO ${SCHEMA}.${table} (${columnList}) SELECT ${columnList} FROM public.${table}`,
        [],
      ),
    );
    console.log(`${table}: copie en ${(copyMs / 1000).toFixed(1)} s, ${span.months} partitions`);
    const indexes = await db.query<{ name: string; definition: string }>(
      `SELECT i.indexname AS name, i.indexdef AS definition
       FROM pg_indexes i JOIN pg_class c ON c.relname = i.indexname AND c.relnamespace = 'public'::regnamespace
       JOIN pg_index x ON x.indexrelid = c.oid
       WHERE i.schemaname = 'public' AND i.tablename = $1 AND NOT x.indisunique`,
      [table],
    );
    for (const { name, definition } of indexes) {
      const sql = definition
        .replace(`INDEX ${name} ON public.${table}`, `INDEX ${name} ON ${SCHEMA}.${table}`)
        .replace(' ON ONLY ', ' ON ');
      const [ms] = await timed(() => db.query(sql, []));
      console.log(`  index ${name}: ${(ms / 1000).toFixed(1)} s`);
    }
    await db.query(`VACUUM (ANALYZE) ${SCHEMA}.${table}`, []);
  }
}

async function built(db: RawDb): Promise<boolean> {
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = $1 AND tablename = ANY($2)`,
    [SCHEMA, TABLES.map((t) => t.list.table)],
  );
  return row?.n === TABLES.length;
}

interface Side {
  p50: number;
  p95: number;
  ids: string;
}

/** One case on both layouts, alternating: each round runs it on the tables, then on the partitions. */
async function compare(tables: RawDb, partitions: RawDb, l: ListSpec, spec: CaseSpec) {
  const samples: [number[], number[]] = [[], []];
  const last: [unknown[][], unknown[][]] = [[], []];
  for (let i = 0; i < RUNS + 2; i++) {
    for (const [k, db] of [tables, partitions].entries()) {
      const [ms, rows] = await timed(() => runStatements(db, spec));
      if (i >= 2) samples[k]?.push(ms);
      last[k] = rows;
    }
  }
  const side = (k: 0 | 1): Side => ({
    p50: percentile(samples[k], 50),
    p95: percentile(samples[k], 95),
    ids: JSON.stringify(
      ((last[k][spec.rowsFrom] ?? []) as Record<string, unknown>[]).map(
        (r) => r[l.name === 'history' ? 'IDInterne' : 'ID'],
      ),
    ),
  });
  return { tables: side(0), partitions: side(1) };
}

/** The probe beside the drop: the first page of the measured installation, then a written row. */
async function probe(db: RawDb, installationId: string, until: () => boolean) {
  const samples: Record<'first page' | 'write', number[]> = { 'first page': [], write: [] };
  for (let n = 0; n < 50 || !until(); n++) {
    samples['first page'].push(
      (
        await timed(() =>
          db.query(
            `SELECT id FROM ${SCHEMA}.import_records WHERE installation_id = $1 ORDER BY date_heure DESC, id DESC LIMIT 26`,
            [installationId],
          ),
        )
      )[0],
    );
    samples.write.push(
      (
        await timed(() =>
          db.query(
            `INSERT INTO ${SCHEMA}.import_records (id, installation_id, id_interne, date_heure, etat, enreg)
             VALUES (1000000000000 + $2::bigint, $1, 'PARTITION-PROBE-' || $2::bigint, now(), 1, '<x/>')`,
            [installationId, Date.now() * 100 + n],
          ),
        )
      )[0],
    );
    await new Promise((r) => setTimeout(r, 20));
  }
  return samples;
}

const fmt = (s: number[]) =>
  `${percentile(s, 50).toFixed(1)} / ${percentile(s, 95).toFixed(1)} / ${Math.max(...s).toFixed(1)}`;

async function dropOldestMonth(db: RawDb, probeDb: RawDb, installationId: string) {
  const floor = await probe(probeDb, installationId, () => true);
  for (const { list } of TABLES) {
    const [oldest] = await db.query<{ name: string; rows: number }>(
      `SELECT c.relname AS name, c.reltuples::bigint::int AS rows FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = '${SCHEMA}.${list.table}'::regclass
       ORDER BY c.relname LIMIT 1`,
      [],
    );
    if (!oldest) continue;
    // What the DELETE's statement triggers keep (day and state counters, storage quota, blob
    // references) a DROP skips: the same aggregates read from the partition first.
    const size =
      list.name === 'history' ? 'coalesce(octet_length(enreg), 0) + octet_length(log)' : 'octet_length(log)';
    const blob = list.name === 'history' ? 'count(enreg_blob) + count(log_blob)' : 'count(log_blob)';
    const [bookkeepingMs] = await timed(() =>
      db.query(
        `SELECT installation_id, (${list.time} AT TIME ZONE 'UTC')::date AS day, count(*), count(*) FILTER (WHERE ${list.error}),
                sum(${size}), ${blob} FROM ${SCHEMA}.${oldest.name} GROUP BY 1, 2`,
        [],
      ),
    );
    console.log(
      `${list.table}: counters of ${oldest.name} read first (what its DELETE triggers keep): ${bookkeepingMs.toFixed(0)} ms`,
    );
    let done = false;
    const [ms] = await timed(async () => {
      const during = probe(probeDb, installationId, () => done);
      const [detachMs] = await timed(() =>
        db.query(
          `ALTER TABLE ${SCHEMA}.${list.table} DETACH PARTITION ${SCHEMA}.${oldest.name} CONCURRENTLY`,
          [],
        ),
      );
      const [dropMs] = await timed(() => db.query(`DROP TABLE ${SCHEMA}.${oldest.name}`, []));
      done = true;
      const samples = await during;
      console.log(
        `${list.table}: ${oldest.name} (${oldest.rows.toLocaleString('fr-FR')} lignes) détachée en ${detachMs.toFixed(0)} ms, ` +
          `supprimée en ${dropMs.toFixed(0)} ms; pendant ce temps, première page ${fmt(samples['first page'])}, ` +
          `écriture ${fmt(samples.write)} (p50 / p95 / max ms, ${samples.write.length} essais)`,
      );
    });
    console.log(`  en tout ${(ms / 1000).toFixed(2)} s`);
  }
  console.log(`seul (avant) : première page ${fmt(floor['first page'])}, écriture ${fmt(floor.write)}`);
  await db.query(`DELETE FROM ${SCHEMA}.import_records WHERE id_interne LIKE 'PARTITION-PROBE-%'`, []);
}

const target = postgres();
const db = await target.open();
const partitionsDb = await target.open();
const probeDb = await target.open();
try {
  if (args.rebuild || !(await built(db))) await build(db);
  await partitionsDb.query(`SET search_path = ${SCHEMA}, public`, []);
  console.log(`${describeMachine()}; charge ${(await import('node:os')).loadavg()[0]?.toFixed(1)}`);
  console.log('| list | case | tables p50 / p95 ms | partitions p50 / p95 ms | same rows |');
  console.log('|---|---|---:|---:|---|');
  for (const { list } of TABLES) {
    const inputs = await inputsOf(db, list, Math.max(2, Math.floor((await countOf(db, list)) / 25 / 2)));
    for (const spec of cases(list, inputs)) {
      const r = await compare(db, partitionsDb, list, spec);
      console.log(
        `| ${list.name} | ${spec.label} | ${r.tables.p50.toFixed(2)} / ${r.tables.p95.toFixed(2)} | ` +
          `${r.partitions.p50.toFixed(2)} / ${r.partitions.p95.toFixed(2)} | ${r.tables.ids === r.partitions.ids ? 'yes' : 'NO'} |`,
      );
    }
  }
  if (!args['no-drop']) {
    const [inst] = await db.query<{ id: string }>('SELECT id FROM installations WHERE sync_id = $1', [
      SYNC_ID,
    ]);
    if (inst) await dropOldestMonth(db, probeDb, inst.id);
  }
} finally {
  await db.close();
  await partitionsDb.close();
  await probeDb.close();
}

async function countOf(raw: RawDb, l: ListSpec): Promise<number> {
  const [row] = await raw.query<{ n: number }>(
    `SELECT coalesce(sum(total), 0)::int AS n FROM ${l.dayCounts} c JOIN installations i ON i.id = c.installation_id
     WHERE i.sync_id = $1`,
    [SYNC_ID],
  );
  return row?.n ?? 0;
}
