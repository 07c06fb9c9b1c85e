/**
 * Issue 17 (« Operations at a glance ») on PostgreSQL: Général's « Activité » and « À traiter »
 * (GET /api/dashboard/activity) at 1 000 000 records and 1 000 000 transactions of one
 * installation, Terminaux's figures (GET /api/terminals/activity) with those transactions over 25
 * terminals, each beside its raw SQL from this process in the same run; and « Tout remettre en
 * attente » on 10 000 records (POST /api/sync-history/bulk-status, one transaction).
 * Goals: the two reads p95 ≤ 20 ms; the bulk action ≤ 2 s.
 *
 *   npm run build && npx tsx bench/glance/run.ts [--records 1000000] [--transactions 1000000]
 *     [--runs 40] [--no-readme]
 *
 * Rows are inserted by SQL in batches of 100 000 (the triggers of migration 014 count them as the
 * connector's inserts would). Figures go to bench/README.md (« Operations at a glance »).
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import {
  createInstallation,
  prepareTarget,
  signIn,
  startServer,
  stopServer,
  writeReadmeSection,
} from '../support/server.ts';
import { ACTIVITY_SQL, activityParams, TERMINALS_SQL, terminalsParams } from './statements.ts';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '1000000' },
    transactions: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '40' },
    'no-readme': { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
const RECORDS = Number(args.records);
const TRANSACTIONS = Number(args.transactions);
const SYNC_ID = 'BENCHGLANCE';
const CLIENT_ID = 'bench-glance-client-id-0001';
const PORT = 5498;
const BATCH = 100_000;

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

const target = await prepareTarget('postgres', 'glance');
const lines: string[] = [];
try {
  createInstallation(target, SYNC_ID, CLIENT_ID);
  const raw = new pg.Client({ connectionString: target.env.DATABASE_URL });
  await raw.connect();
  const inst = (await raw.query<{ id: string }>('SELECT id FROM installations WHERE sync_id = $1', [SYNC_ID]))
    .rows[0]!.id;
  const now = Date.now();
  const t0 = performance.now();
  // Records: one every ~90 s back from now (about 3 years), 1 % in error, 0.5 % waiting.
  for (let from = 0; from < RECORDS; from += BATCH) {
    await raw.query(
      `INSERT INTO import_records (installation_id, id_interne, type_enreg, ref_doc, date_heure, etat, enreg)
       SELECT $1, 'R' || i, 'DocumentDEVIS', 'DEV' || i, to_timestamp($2 / 1000.0) - make_interval(secs => i * 90),
              CASE WHEN i % 100 = 0 THEN -1 WHEN i % 200 = 1 THEN 0 ELSE 1 END, '<x/>'
       FROM generate_series($3::int, $4::int) AS i`,
      [inst, now, from + 1, Math.min(RECORDS, from + BATCH)],
    );
  }
  const recordSeconds = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  // Transactions: one every ~90 s, 25 terminals in turn, 2 % in error.
  for (let from = 0; from < TRANSACTIONS; from += BATCH) {
    await raw.query(
      `INSERT INTO transaction_logs (installation_id, tx_id, err, date_heure_trt, num_transaction, type_doc, id_tablette, libelle_tablette)
       SELECT $1, 'T' || i, CASE WHEN i % 50 = 0 THEN 1 ELSE 0 END,
              to_timestamp($2 / 1000.0) - make_interval(secs => i * 90), i::text, 'DEVIS',
              'TAB-' || lpad((i % 25)::text, 2, '0'), 'Tablette ' || (i % 25)
       FROM generate_series($3::int, $4::int) AS i`,
      [inst, now, from + 1, Math.min(TRANSACTIONS, from + BATCH)],
    );
  }
  const txSeconds = (performance.now() - t1) / 1000;
  await raw.query('ANALYZE');
  console.error(`seeded: records ${recordSeconds.toFixed(1)} s, transactions ${txSeconds.toFixed(1)} s`);

  const server = await startServer(target, PORT);
  try {
    const cookie = await signIn(server.base, SYNC_ID, CLIENT_ID);
    const call = async (path: string, init: RequestInit = {}) => {
      const res = await fetch(`${server.base}${path}`, {
        ...init,
        headers: { cookie, 'content-type': 'application/json', ...(init.headers ?? {}) },
      });
      if (!res.ok) throw new Error(`${path} ${res.status} ${await res.text()}`);
      return res.json() as Promise<Record<string, unknown>>;
    };
    // The first read in the installation's zone builds its day counters from the quarters
    // (migration 017): once per installation, and again when Planification's zone changes.
    const r0 = performance.now();
    await call('/api/dashboard/activity');
    const firstReadMs = performance.now() - r0;
    const activityApi = await measure(() => call('/api/dashboard/activity'));
    const zone = 'Europe/Paris';
    // The endpoint's query (domain/activity.ts): the day counters kept in the installation's zone
    // (migration 017), « À traiter » in the same statement.
    const activityRaw = await measure(() => raw.query(ACTIVITY_SQL, activityParams(inst, zone)));
    // Before (migration 014 alone): the same figures summed from the quarters of an hour, each
    // converted to the zone's day, in three statements.
    const quartersRaw = await measure(async () => {
      await raw.query(
        `SELECT (quarter AT TIME ZONE $2)::date AS day, sum(total), sum(errors) FROM import_record_quarter_counts
           WHERE installation_id = $1 AND quarter >= now() - interval '30 days' GROUP BY 1`,
        [inst, zone],
      );
      await raw.query(
        `SELECT (quarter AT TIME ZONE $2)::date AS day, sum(total) FROM transaction_log_quarter_counts
           WHERE installation_id = $1 AND quarter >= now() - interval '30 days' GROUP BY 1`,
        [inst, zone],
      );
      await raw.query('SELECT etat, n FROM import_record_state_counts WHERE installation_id = $1', [inst]);
    });
    const scan = await measure(() =>
      raw.query(
        `SELECT (date_heure AT TIME ZONE $2)::date, count(*), count(*) FILTER (WHERE etat = -1) FROM import_records
         WHERE installation_id = $1 AND date_heure >= now() - interval '30 days' GROUP BY 1`,
        [inst, zone],
      ),
    );
    const terminalsApi = await measure(() => call('/api/terminals/activity'));
    const terminalsRaw = await measure(() => raw.query(TERMINALS_SQL, terminalsParams(inst)));
    const trace = await measure(() => call('/api/transaction-logs?terminal=TAB-07&pageSize=20'));
    const terminalCount = ((await call('/api/terminals/activity')).terminals as unknown[]).length;

    // Bulk: the records in error (1 % of the rows: 10 000 at a million), re-queued, then every
    // waiting record marked processed.
    const bulkBody = { errorOnly: true };
    const dry = (await call('/api/sync-history/bulk-status', {
      method: 'POST',
      body: JSON.stringify({ newStatus: 0, ...bulkBody, dryRun: true }),
    })) as { count: number };
    const b0 = performance.now();
    const done = (await call('/api/sync-history/bulk-status', {
      method: 'POST',
      body: JSON.stringify({ newStatus: 0, ...bulkBody }),
    })) as { count: number };
    const bulkMs = performance.now() - b0;
    const b1 = performance.now();
    const back = (await call('/api/sync-history/bulk-status', {
      method: 'POST',
      body: JSON.stringify({ newStatus: 1, waitingOnly: true }),
    })) as { count: number };
    const bulkBackMs = performance.now() - b1;

    const ms = (v: number) => (v < 10 ? v.toFixed(2) : v.toFixed(1));
    lines.push(
      '## Operations at a glance',
      '',
      `Run \`npm run build && npx tsx bench/glance/run.ts\` (PostgreSQL, a fresh schema; ${RECORDS.toLocaleString('fr-FR')} records and ${TRANSACTIONS.toLocaleString('fr-FR')} transactions over ${terminalCount} terminals in one installation, one every 90 s back from now, inserted by SQL in batches of 100 000 with the triggers of migration 014 on: ${recordSeconds.toFixed(1)} s and ${txSeconds.toFixed(1)} s; ${RUNS} runs per case after 3 warm-up runs, one request at a time). « raw SQL »: the server's statements (bench/glance/statements.ts, the copy of domain/activity.ts) from the bench process in the same run.`,
      '',
      `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, nproc ${cpus().length}, ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at the end (the machine is shared: figures move with it).`,
      '',
      '| case | API p50 ms | API p95 ms | raw SQL p50 ms | raw SQL p95 ms |',
      '|---|---:|---:|---:|---:|',
      `| Général: GET /api/dashboard/activity (30 days + « À traiter ») | ${ms(activityApi.p50)} | ${ms(activityApi.p95)} | ${ms(activityRaw.p50)} | ${ms(activityRaw.p95)} |`,
      `| (before, migration 014 alone: the 30 days summed from the quarters of an hour) | — | — | ${ms(quartersRaw.p50)} | ${ms(quartersRaw.p95)} |`,
      `| (for comparison: the 30 days by a scan of the records) | — | — | ${ms(scan.p50)} | ${ms(scan.p95)} |`,
      `| Terminaux: GET /api/terminals/activity (${terminalCount} terminals) | ${ms(terminalsApi.p50)} | ${ms(terminalsApi.p95)} | ${ms(terminalsRaw.p50)} | ${ms(terminalsRaw.p95)} |`,
      `| Trace filtered on one terminal, 20 rows (the editor's list) | ${ms(trace.p50)} | ${ms(trace.p95)} | — | — |`,
      '',
      `- The first read in a zone (its day counters built from the quarters): ${Math.round(firstReadMs)} ms, once per installation and zone.`,
      `- Général p95 ≤ 20 ms: ${ms(activityApi.p95)} ms → ${activityApi.p95 <= 20 ? 'met' : 'NOT met'}; Terminaux p95 ≤ 20 ms: ${ms(terminalsApi.p95)} ms → ${terminalsApi.p95 <= 20 ? 'met' : 'NOT met'}.`,
      `- « Tout remettre en attente » (filter « erreurs », ${dry.count.toLocaleString('fr-FR')} counted by the confirmation, ${done.count.toLocaleString('fr-FR')} changed): ${Math.round(bulkMs)} ms; « Tout marquer traité » on the filter « non traités » (${back.count.toLocaleString('fr-FR')} records): ${Math.round(bulkBackMs)} ms; goal ≤ 2 s for 10 000 → ${done.count >= 10_000 && bulkMs <= 2000 ? 'met' : done.count < 10_000 ? 'fewer than 10 000 matched' : 'NOT met'}.`,
    );
  } finally {
    await stopServer(server);
    await raw.end();
  }
} finally {
  await target.cleanup();
}
const text = lines.join('\n');
console.log(text);
if (!args['no-readme']) writeReadmeSection('bench/glance', text);
