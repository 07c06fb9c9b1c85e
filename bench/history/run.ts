/**
 * The import history and the transaction trace at a million rows, on the embedded database
 * (PGlite) and on PostgreSQL: p50 and p95 of each list case through the API (the built server,
 * a process of its own, one signed-in session, requests one at a time, answer parsed), beside the
 * raw SQL of the same case in the same run (the server stopped, the same statements from this
 * process), then the CSV export of a million rows (rows/s, the server's memory).
 *
 *   npx tsx bench/history/run.ts [--db both|embedded|postgres] [--records 1000000]
 *     [--transactions 1000000] [--installations 100] [--neighbour-rows N] [--runs 40] [--reseed] [--no-export] [--seed-only] [--no-readme]
 *
 * Data: `npm run admin -- seed-history` into bench/history/data/ (embedded) or the database
 * synchro_bench_history of POSTGRES_URL's server (default postgres://postgres@127.0.0.1:5432/test);
 * kept between runs (--reseed starts again). Figures go to bench/README.md (« Import history and
 * transaction trace »); the raw results to bench/history/data/results-<db>.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describeMachine } from '../config-xml/machine.ts';
import { cases, LISTS, type CaseInputs, type CaseSpec, type ListSpec } from './cases.ts';
import { ACTIVITY_SQL, activityParams, TERMINALS_SQL, terminalsParams } from '../glance/statements.ts';
import { inputsOf, percentile, runStatements } from './raw.ts';
import {
  writeReadme,
  type CaseResult,
  type DbResult,
  type ExportResult,
  type GlanceResult,
} from './report.ts';
import {
  DATA,
  embedded,
  postgres,
  prepare,
  REPO,
  rssMb,
  startServer,
  stopServer,
  type Server,
  type Target,
} from './targets.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    records: { type: 'string', default: '1000000' },
    transactions: { type: 'string', default: '1000000' },
    installations: { type: 'string', default: '100' },
    'neighbour-rows': { type: 'string' },
    runs: { type: 'string', default: '40' },
    reseed: { type: 'boolean', default: false },
    'no-readme': { type: 'boolean', default: false },
    /** The cases only: the CSV exports of 10 000 000 rows take minutes. */
    'no-export': { type: 'boolean', default: false },
    /** Seed (or check the seed) and stop: the measuring run comes later, on a quiet machine. */
    'seed-only': { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
/** The page in the middle of the measured installation's history: 20 000 of 40 000 at a million rows. */
const MIDDLE_PAGE = Math.max(2, Math.floor(Number(args.records) / 25 / 2));

// ---------------------------------------------------------------------------------------------
// Measuring

async function measure<T>(task: () => Promise<T>): Promise<{ p50: number; p95: number; last: T }> {
  let last = await task();
  for (let i = 0; i < 2; i++) last = await task();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    last = await task();
    samples.push(performance.now() - t0);
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), last };
}

async function apiGet(server: Server, path: string, query: Record<string, string>): Promise<unknown> {
  const res = await fetch(`${server.base}${path}?${new URLSearchParams(query)}`, {
    headers: { cookie: server.cookie },
  });
  if (!res.ok) throw new Error(`${path} ${res.status} ${await res.text()}`);
  return res.json();
}

/** 'Suivant' from the middle page: the keyset statement the server runs after its last row. */
function nextCase(l: ListSpec, inputs: CaseInputs, rowKey: string, rowId: string): CaseSpec {
  return {
    label: NEXT_LABEL,
    query: {},
    statements: [
      {
        sql: `SELECT coalesce(sum(total), 0)::int AS n FROM ${l.dayCounts} WHERE installation_id = $1`,
        params: [inputs.installationId],
      },
      {
        sql: `SELECT ${l.columns}, id::text AS "rowId",
      to_char(${l.time} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "rowKey"
    FROM ${l.table} WHERE installation_id = $1 AND (${l.time}, id) < ($2::timestamptz, $3::bigint)
    ORDER BY ${l.time} DESC, id DESC OFFSET $4 LIMIT $5`,
        params: [inputs.installationId, rowKey, rowId, 0, 26],
      },
    ],
    rowsFrom: 1,
    reverse: false,
  };
}

/** Downloads an export with node:http (no stream adapter in the way), counting bytes. */
function download(url: string, cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { cookie } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`${url} ${res.statusCode}`));
        return;
      }
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve(bytes));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/**
 * The export of `rows` rows, with the server's memory read every 100 ms: its peak, and the highest
 * reading in each quarter of the download's time (flat memory: the last quarters no higher than
 * the first, whatever the number of rows already sent).
 */
async function exportCsv(server: Server, path: string, rows: number): Promise<ExportResult> {
  const pid = server.process.pid ?? 0;
  const rssBefore = rssMb(pid);
  const samples: { at: number; rss: number }[] = [];
  const t0 = performance.now();
  const sampler = setInterval(() => samples.push({ at: performance.now() - t0, rss: rssMb(pid) }), 100);
  const bytes = await download(`${server.base}${path}`, server.cookie);
  const ms = performance.now() - t0;
  clearInterval(sampler);
  const rssByQuarter = [0, 1, 2, 3].map((q) =>
    Math.max(
      rssBefore,
      ...samples.filter((s) => Math.min(3, Math.floor((4 * s.at) / ms)) === q).map((s) => s.rss),
    ),
  );
  return {
    path,
    rows,
    seconds: ms / 1000,
    rowsPerSecond: rows / (ms / 1000),
    megabytes: bytes / 2 ** 20,
    rssBefore,
    rssPeak: Math.max(...rssByQuarter),
    rssByQuarter,
  };
}

type Timing = { p50: number; p95: number };

/**
 * Général's « Activité » and Terminaux's figures at this scale (issue 18: « the Général counters
 * likewise »), and the trace filtered on the first terminal (Terminaux's editor), through the API.
 * The first read in the installation's zone builds its day counters once: a warm-up run.
 */
async function glanceThroughApi(server: Server) {
  const activity = await measure(() => apiGet(server, '/api/dashboard/activity', {}));
  const { zone } = activity.last as { zone: string };
  const terminals = await measure(() => apiGet(server, '/api/terminals/activity', {}));
  const list = (terminals.last as { terminals: { terminalId: string }[] }).terminals;
  const terminal = list[0]?.terminalId ?? '';
  const trace = await measure(() => apiGet(server, '/api/transaction-logs', { terminal, pageSize: '20' }));
  return { zone, terminal, count: list.length, activity, terminals, trace };
}

function glanceResults(
  api: Awaited<ReturnType<typeof glanceThroughApi>>,
  raw: { activity: Timing; terminals: Timing },
): GlanceResult[] {
  const row = (label: string, a: Timing, r: Timing | null): GlanceResult => ({
    label,
    apiP50: a.p50,
    apiP95: a.p95,
    rawP50: r?.p50 ?? null,
    rawP95: r?.p95 ?? null,
  });
  return [
    row('Général: GET /api/dashboard/activity (30 days + « À traiter »)', api.activity, raw.activity),
    row(`Terminaux: GET /api/terminals/activity (${api.count} terminals)`, api.terminals, raw.terminals),
    row(`Trace filtered on one terminal (${api.terminal}), 20 rows`, api.trace, null),
  ];
}

const NEXT_LABEL = `Suivant to page ${(MIDDLE_PAGE + 1).toLocaleString('fr-FR')} (cursor)`;
const isMiddle = (spec: CaseSpec) => spec.label.startsWith(`page ${MIDDLE_PAGE.toLocaleString('fr-FR')}`);

async function benchTarget(target: Target): Promise<DbResult | null> {
  const seedSeconds = await prepare(target, {
    records: Number(args.records),
    transactions: Number(args.transactions),
    installations: Number(args.installations),
    ...(args['neighbour-rows'] === undefined ? {} : { neighbourRows: Number(args['neighbour-rows']) }),
    reseed: args.reseed === true,
  });
  if (args['seed-only']) return null;
  const raw0 = await target.open();
  const inputs = {
    history: await inputsOf(raw0, LISTS.history, MIDDLE_PAGE),
    trace: await inputsOf(raw0, LISTS.trace, MIDDLE_PAGE),
  };
  await raw0.close();
  const lists = [LISTS.history, LISTS.trace];

  // 1. Through the API: every case, then 'Suivant' from the middle page with its cursor.
  const server = await startServer(target);
  const api = new Map<string, { p50: number; p95: number; ids: string[] }>();
  const exports: ExportResult[] = [];
  let glanceApi: Awaited<ReturnType<typeof glanceThroughApi>> | undefined;
  const record = (l: ListSpec, label: string, m: { p50: number; p95: number; last: unknown }) => {
    api.set(`${l.name}/${label}`, { p50: m.p50, p95: m.p95, ids: l.rowsOf(m.last) });
    console.log(
      `[${target.name}] API ${l.name} ${label}: p50 ${m.p50.toFixed(2)} ms, p95 ${m.p95.toFixed(2)} ms`,
    );
  };
  try {
    for (const l of lists) {
      let cursor: string | null = null;
      for (const spec of cases(l, inputs[l.name])) {
        const m = await measure(() => apiGet(server, l.path, spec.query));
        record(l, spec.label, m);
        if (isMiddle(spec)) cursor = l.pagingOf(m.last).nextCursor;
      }
      if (!cursor) throw new Error('page du milieu sans curseur');
      const next = { page: String(MIDDLE_PAGE + 1), cursor };
      record(l, NEXT_LABEL, await measure(() => apiGet(server, l.path, next)));
    }
    glanceApi = await glanceThroughApi(server);
    const exportList = [
      ['/api/exports/sync-history.csv', inputs.history.total],
      ['/api/exports/transaction-logs.csv', inputs.trace.total],
    ] as const;
    for (const [path, rows] of args['no-export'] ? [] : exportList) {
      const result = await exportCsv(server, path, rows);
      exports.push(result);
      console.log(`[${target.name}] export ${path}: ${JSON.stringify(result)}`);
    }
  } finally {
    await stopServer(server);
  }

  // 2. The same statements, raw, in the same run.
  const raw = await target.open();
  const results: CaseResult[] = [];
  let glanceRaw: { activity: Timing; terminals: Timing } | undefined;
  const check = async (l: ListSpec, spec: CaseSpec) => {
    const m = await measure(() => runStatements(raw, spec));
    const rawIds = (m.last[spec.rowsFrom] ?? [])
      .slice(0, 25)
      .map((r) => String(r[l.name === 'history' ? 'IDInterne' : 'ID']));
    if (spec.reverse) rawIds.reverse();
    const fromApi = api.get(`${l.name}/${spec.label}`);
    const same = JSON.stringify(fromApi?.ids) === JSON.stringify(rawIds);
    results.push({
      list: l.name,
      label: spec.label,
      apiP50: fromApi?.p50 ?? NaN,
      apiP95: fromApi?.p95 ?? NaN,
      rawP50: m.p50,
      rawP95: m.p95,
      rows: fromApi?.ids.length ?? 0,
      sameRows: same,
    });
    console.log(
      `[${target.name}] SQL ${l.name} ${spec.label}: p50 ${m.p50.toFixed(2)} ms, p95 ${m.p95.toFixed(2)} ms${same ? '' : ' (≠ API)'}`,
    );
    return m.last;
  };
  try {
    for (const l of lists) {
      let edge: { rowKey: string; rowId: string } | undefined;
      for (const spec of cases(l, inputs[l.name])) {
        const last = await check(l, spec);
        if (isMiddle(spec)) edge = last[spec.rowsFrom]?.[24] as typeof edge;
      }
      if (!edge) throw new Error('page du milieu incomplète');
      await check(l, nextCase(l, inputs[l.name], edge.rowKey, edge.rowId));
    }
    const inst = inputs.history.installationId;
    const zone = glanceApi?.zone ?? 'Europe/Paris';
    glanceRaw = {
      activity: await measure(() => raw.query(ACTIVITY_SQL, activityParams(inst, zone))),
      terminals: await measure(() => raw.query(TERMINALS_SQL, terminalsParams(inst))),
    };
  } finally {
    await raw.close();
  }
  return {
    db: target.name,
    machine: describeMachine(),
    date: new Date().toISOString().slice(0, 16).replace('T', ' '),
    load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    runs: RUNS,
    seedSeconds,
    records: inputs.history.total,
    transactions: inputs.trace.total,
    installations: Number(args.installations),
    terms: { historyRare: inputs.history.rare, traceRare: inputs.trace.rare, common: 'devis' },
    cases: results,
    exports,
    ...(glanceApi && glanceRaw ? { glance: glanceResults(glanceApi, glanceRaw) } : {}),
  };
}

const targets =
  args.db === 'both' ? [embedded(), postgres()] : args.db === 'postgres' ? [postgres()] : [embedded()];
mkdirSync(DATA, { recursive: true });
for (const target of targets) {
  const result = await benchTarget(target);
  if (result === null) continue;
  writeFileSync(join(DATA, `results-${target.name}.json`), JSON.stringify(result, null, 2));
}
if (!args['no-readme'] && !args['seed-only']) writeReadme(DATA, join(REPO, 'bench/README.md'));
