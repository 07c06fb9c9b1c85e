/**
 * The audit journal at a million rows of one installation (issue « Who changed what »): p50 and
 * p95 of GET /api/audit through the built server (one signed-in session, one request at a time,
 * answer parsed) for each case, beside the raw SQL of its page read from this process in the same
 * run (PostgreSQL; on the embedded database the server owns the data folder, so only the API is
 * measured). Goal on PostgreSQL: first page and any page p95 ≤ 20 ms.
 *
 *   npm run build && npx tsx bench/audit/run.ts [--db postgres|embedded|both] [--rows 1000000]
 *     [--installations 10] [--runs 40] [--keep] [--seed-only] [--no-readme]
 *
 * Data: a fresh database (bench/support/server.ts), `npm run admin -- seed-history --audit N`;
 * with --keep (PostgreSQL) the schema bench_audit_kept, seeded once for rows × installations
 * (10 000 000 rows take 40 minutes) and measured again by later runs.
 * Figures go to bench/README.md (« Audit journal »).
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { contains, containsParam } from '../history/cases.ts';
import {
  keptSchema,
  admin,
  createInstallation,
  prepareTarget,
  signIn,
  startServer,
  stopServer,
  writeReadmeSection,
  type Target,
  type TargetName,
} from '../support/server.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'postgres' },
    rows: { type: 'string', default: '1000000' },
    installations: { type: 'string', default: '10' },
    runs: { type: 'string', default: '40' },
    'no-readme': { type: 'boolean', default: false },
    /** PostgreSQL: seed into the schema bench_audit_kept once, and measure it again on later runs. */
    keep: { type: 'boolean', default: false },
    /** Seed (or find the kept seed) and stop: the measuring run comes later, on a quiet machine. */
    'seed-only': { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
const SYNC_ID = 'BENCHAUDIT';
const CLIENT_ID = 'bench-audit-client-id-0001';
const PORT = 5497;

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function measure(task: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 3; i++) await task();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await task();
    samples.push(performance.now() - t0);
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

interface Case {
  name: string;
  /** The API query (a cursor is taken from a first request when `cursorFrom` is set). */
  query: Record<string, string>;
  cursorFrom?: Record<string, string>;
  /** The page's raw SQL ($1 the installation). */
  sql: string;
  params: unknown[];
}

const COLS = 'id, at, actor, action, outcome, address, details';
const PAGE = (where: string, order = 'DESC', offset = 0) =>
  `SELECT ${COLS} FROM audit_log WHERE installation_id = $1${where} ORDER BY at ${order}, id ${order} OFFSET ${offset} LIMIT 26`;

function cases(day: string, dayFrom: string, dayTo: string, rare: string, total: number): Case[] {
  const middle = Math.max(2, Math.floor(total / 25 / 2));
  return [
    { name: 'first page', query: {}, sql: PAGE(''), params: [] },
    {
      name: `page ${middle} (middle, by number)`,
      query: { page: String(middle) },
      sql: PAGE('', 'DESC', (middle - 1) * 25),
      params: [],
    },
    { name: 'last page', query: { page: String(Math.ceil(total / 25)) }, sql: PAGE('', 'ASC'), params: [] },
    { name: 'Suivant to page 2 (cursor)', query: { page: '2' }, cursorFrom: {}, sql: PAGE(''), params: [] },
    {
      name: 'failures only',
      query: { errorOnly: 'true' },
      sql: PAGE(" AND outcome <> 'success'"),
      params: [],
    },
    {
      name: 'kind « Configuration »',
      query: { kind: 'configuration' },
      sql: PAGE(" AND kind = 'configuration'"),
      params: [],
    },
    {
      name: `one day (${day})`,
      query: { date: day },
      sql: PAGE(' AND at >= $2 AND at < $3'),
      params: [dayFrom, dayTo],
    },
    ...[rare, 'restauration'].map((term) => ({
      name: `search « ${term} »`,
      query: { search: term },
      sql: PAGE(` AND ${contains(term)}`),
      params: [containsParam(term)],
    })),
  ];
}

interface Row {
  name: string;
  api: { p50: number; p95: number };
  raw: { p50: number; p95: number } | null;
  rows: number;
}

/**
 * With --keep, the seed an earlier run finished for these sizes (seed-history writes its
 * `history.seed` entry last, after VACUUM (ANALYZE)); null when there is none.
 */
async function keptSeed(target: Target): Promise<{ seconds: number } | null> {
  if (!args.keep) return null;
  const client = new pg.Client({ connectionString: target.env.DATABASE_URL });
  await client.connect();
  try {
    const rows = await client
      .query<{ audit: string; installations: string; seconds: string | null }>(
        `SELECT a.details->>'audit' AS audit, a.details->>'installations' AS installations,
                a.details->>'seconds' AS seconds
         FROM installations i JOIN audit_log a ON a.installation_id = i.id AND a.action = 'history.seed'
         WHERE i.sync_id = $1 ORDER BY a.at DESC LIMIT 1`,
        [SYNC_ID],
      )
      .catch(() => ({ rows: [] }));
    const row = rows.rows[0];
    if (row === undefined) {
      // A seed stopped halfway: start again from an empty schema.
      const schema = keptSchema('audit');
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
      return null;
    }
    // The entry counts the rows of every installation it seeded (the measured one's and its
    // neighbours'), hence « at least ».
    if (Number(row.audit) < Number(args.rows) || Number(row.installations) !== Number(args.installations)) {
      throw new Error(
        `${keptSchema('audit')} holds ${row.audit} rows × ${row.installations} installations: drop the schema to seed other sizes`,
      );
    }
    return { seconds: Number(row.seconds ?? Number.NaN) };
  } finally {
    await client.end();
  }
}

type TargetResult = { name: TargetName; rows: Row[]; total: number; seedSeconds: number };

async function runTarget(name: TargetName): Promise<TargetResult | null> {
  const target: Target = await prepareTarget(name, 'audit', { keep: args.keep });
  try {
    const seeded =
      (await keptSeed(target)) ??
      (createInstallation(target, SYNC_ID, CLIENT_ID),
      JSON.parse(
        admin(
          target,
          'seed-history',
          '--sync-id',
          SYNC_ID,
          '--audit',
          String(args.rows),
          '--installations',
          String(args.installations),
        )
          .trim()
          .split('\n')
          .pop() ?? '{}',
      ) as { seconds: number });
    if (args['seed-only']) return null;
    const raw = name === 'postgres' ? new pg.Client({ connectionString: target.env.DATABASE_URL }) : null;
    await raw?.connect();
    const server = await startServer(target, PORT);
    try {
      const cookie = await signIn(server.base, SYNC_ID, CLIENT_ID);
      const get = async (query: Record<string, string>) => {
        const res = await fetch(`${server.base}/api/audit?${new URLSearchParams(query)}`, {
          headers: { cookie },
        });
        if (!res.ok) throw new Error(`/api/audit ${res.status} ${await res.text()}`);
        return (await res.json()) as {
          rows: unknown[];
          pagination: { total: number; nextCursor: string | null };
        };
      };
      const first = await get({});
      const total = first.pagination.total;
      const day = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
      const inst = raw
        ? (await raw.query<{ id: string }>('SELECT id FROM installations WHERE sync_id = $1', [SYNC_ID]))
            .rows[0]!.id
        : '';
      const zoneDay = raw
        ? (
            await raw.query<{ from: Date; to: Date }>(
              `SELECT ($1::date::timestamp AT TIME ZONE 'Europe/Paris') AS "from", (($1::date + 1)::timestamp AT TIME ZONE 'Europe/Paris') AS "to"`,
              [day],
            )
          ).rows[0]!
        : { from: new Date(), to: new Date() };
      const rare = `nuxideva${Math.floor(Number(args.rows) / 3)
        .toString(16)
        .padStart(12, '0')}`;
      const out: Row[] = [];
      for (const c of cases(day, zoneDay.from.toISOString(), zoneDay.to.toISOString(), rare, total)) {
        const query = c.cursorFrom
          ? { ...c.query, cursor: (await get(c.cursorFrom)).pagination.nextCursor ?? '' }
          : c.query;
        let rows = 0;
        const api = await measure(async () => {
          rows = (await get(query)).rows.length;
        });
        const rawTimes = raw ? await measure(() => raw.query(c.sql, [inst, ...c.params])) : null;
        out.push({ name: c.name, api, raw: rawTimes, rows });
        console.error(
          `${name} ${c.name}: API p95 ${api.p95.toFixed(1)} ms${rawTimes ? `, raw p95 ${rawTimes.p95.toFixed(1)} ms` : ''}`,
        );
      }
      return { name, rows: out, total, seedSeconds: seeded.seconds };
    } finally {
      await stopServer(server);
      await raw?.end();
    }
  } finally {
    await target.cleanup();
  }
}

const ms = (v: number) => (v < 10 ? v.toFixed(2) : v.toFixed(1));
const names: TargetName[] = args.db === 'both' ? ['postgres', 'embedded'] : [args.db as TargetName];
const sections: string[] = [
  '## Audit journal',
  '',
  `Run \`npm run build && npx tsx bench/audit/run.ts${args.keep ? ` --rows ${args.rows} --keep` : ''}\` (${args.keep ? 'the schema bench_audit_kept, seeded once by an earlier run' : 'a fresh database'}, \`seed-history --audit ${args.rows} --installations ${args.installations}\`, ${RUNS} runs per case after 3 warm-up runs, one request at a time). « raw SQL »: the page's statement from the bench process in the same run (PostgreSQL only: on the embedded database the server owns the data folder). Goal on PostgreSQL: first page and any page p95 ≤ 20 ms.`,
];
for (const n of names) {
  const r = await runTarget(n);
  if (r === null) continue;
  const isSearch = (x: (typeof r.rows)[number]) => x.name.startsWith('search');
  const worstPage = Math.max(...r.rows.filter((x) => !isSearch(x)).map((x) => x.api.p95));
  const worstSearch = Math.max(...r.rows.filter(isSearch).map((x) => x.api.p95));
  sections.push(
    '',
    `### ${n === 'postgres' ? 'PostgreSQL' : 'Embedded database (PGlite)'}`,
    '',
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, nproc ${cpus().length}, ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(
        ' ',
      )} at the end (the machine is shared: figures move with it). ${r.total.toLocaleString('fr-FR')} rows in the measured installation, seeded in ${r.seedSeconds} s.`,
    '',
    '| case | API p50 ms | API p95 ms | raw SQL p50 ms | raw SQL p95 ms | rows |',
    '|---|---:|---:|---:|---:|---:|',
    ...r.rows.map(
      (x) =>
        `| ${x.name} | ${ms(x.api.p50)} | ${ms(x.api.p95)} | ${x.raw ? ms(x.raw.p50) : '—'} | ${x.raw ? ms(x.raw.p95) : '—'} | ${x.rows} |`,
    ),
    '',
    `- pages (every case but the searches) p95 ≤ 20 ms, the goal of issue 15: worst ${ms(worstPage)} ms → ${worstPage <= 20 ? 'met' : 'NOT met'}${n === 'postgres' ? '' : ' (the goal is PostgreSQL’s; given for comparison)'}.`,
    `- searches p95 ≤ 50 ms (the bar of the history's searches, issue 18): worst ${ms(worstSearch)} ms → ${worstSearch <= 50 ? 'met' : 'NOT met'}. A search also counts its matches up to 1 001 (« plus de 1 000 »), newest first: for a common term that count, not the page (raw SQL), is the time of the answer.`,
  );
}
const text = sections.join('\n');
console.log(text);
if (!args['no-readme'] && !args['seed-only']) writeReadmeSection('bench/audit', text);
