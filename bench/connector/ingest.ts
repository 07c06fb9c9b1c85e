/**
 * Ingestion through the connector API v1 against a raw multi-row INSERT of the same rows, in the
 * same run, on the embedded database (PGlite) and on PostgreSQL.
 *
 *   npm run build -w @synchro/server
 *   npx tsx bench/connector/ingest.ts [--records 100000] [--transactions 100000]
 *     [--db both|embedded|postgres] [--in-flight 1] [--no-readme] [--profile DIR] [--entry MAIN_JS]
 *
 * The server is the built one (`apps/server/dist/main.js`), a process of its own with a fresh
 * database: a temporary DATA_DIR, or a schema of its own in PostgreSQL (POSTGRES_URL, default
 * postgres://postgres@127.0.0.1:5432/test), dropped at the end. Import records (about 2 KB of
 * `Enreg` each) go in batches of 500, transactions in batches of 1 000, each answer checked;
 * bodies are built before the clock starts. The raw INSERT writes the same rows (already in their
 * stored form) as multi-row `INSERT … VALUES (…), (…)` statements of the same batch sizes from
 * this process: on PostgreSQL into the same tables for a second installation, on the embedded
 * database into a second PGlite of this process with the same migrations (the server owns its own).
 * The machine is shared, so the two alternate by segments of 10 batches: both meet the same load.
 * The table is written to bench/README.md between its markers.
 */
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { connectorTimeToUtc } from '@synchro/contracts';
import { decodeConnectorText } from '@synchro/config-xml';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { describeMachine } from '../config-xml/machine.ts';
import {
  createInstallation,
  prepareTarget,
  REPO,
  startServer,
  stopServer,
  writeReadmeSection,
  type Target,
  type TargetName,
} from '../support/server.ts';
import { recordOf, storedRecord, transactionOf, ZONE } from './rows.ts';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    transactions: { type: 'string', default: '100000' },
    db: { type: 'string', default: 'both' },
    'in-flight': { type: 'string', default: '1' },
    'no-readme': { type: 'boolean', default: false },
    /** Writes a CPU profile of the server (node --cpu-prof) into this folder. */
    profile: { type: 'string' },
    /** Another build's server (`<worktree>/apps/server/dist/main.js`): « before » figures in the same conditions. */
    entry: { type: 'string' },
  },
});
const RECORDS = Number(args.records);
const TRANSACTIONS = Number(args.transactions);
const IN_FLIGHT = Number(args['in-flight']);
const RECORD_BATCH = 500;
const TX_BATCH = 1000;
const CLIENT_ID = 'bench-client-id-0001';

// ---------------------------------------------------------------------------------------------
// Through the API

/** Posts bodies one after the other (or IN_FLIGHT at a time); the time it took. */
async function postBatches(
  url: string,
  token: string,
  bodies: readonly Uint8Array[],
  expected: number[],
): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < bodies.length) {
      const i = next++;
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: bodies[i],
      });
      const answer = (await res.json()) as { inserted?: number; message?: string };
      if (res.status !== 200 || answer.inserted !== expected[i])
        throw new Error(`batch ${i}: ${res.status} ${JSON.stringify(answer)}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return performance.now() - started;
}

function batches<T>(count: number, size: number, make: (n: number) => T): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < count; start += size)
    out.push(Array.from({ length: Math.min(size, count - start) }, (_, i) => make(start + i)));
  return out;
}

// ---------------------------------------------------------------------------------------------
// The raw INSERT: the same rows in their stored form

type Row = unknown[];

function storedTransaction(installationId: string, n: number): Row {
  const t = transactionOf(n, 'RAWTX');
  return [
    installationId,
    t.ID,
    t.Err,
    connectorTimeToUtc(t.DateHeureTrt, ZONE),
    decodeConnectorText(t.NumTransaction),
    decodeConnectorText(t.TypeDoc),
    decodeConnectorText(t.RefDoc),
    decodeConnectorText(t.IDTablette),
    decodeConnectorText(t.LibelleTablette),
    t.Log,
  ];
}

const RECORD_COLUMNS =
  'installation_id, id_interne, type_enreg, ref_doc, date_heure, num_ligne, type_element, etat, log, enreg, has_file';
const TX_COLUMNS =
  'installation_id, tx_id, err, date_heure_trt, num_transaction, type_doc, ref_doc, id_tablette, libelle_tablette, log';

function multiRowInsert(table: string, columns: string, rows: Row[]): { sql: string; params: unknown[] } {
  const width = rows[0]?.length ?? 0;
  const tuples = rows.map(
    (_, r) => `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(', ')})`,
  );
  return { sql: `INSERT INTO ${table} (${columns}) VALUES ${tuples.join(', ')}`, params: rows.flat() };
}

type RunSql = (sql: string, params: unknown[]) => Promise<unknown>;

async function rawInsert(run: RunSql, table: string, columns: string, groups: Row[][]): Promise<number> {
  const statements = groups.map((rows) => multiRowInsert(table, columns, rows));
  const started = performance.now();
  for (const s of statements) await run(s.sql, s.params);
  return performance.now() - started;
}

/** Batches per segment: the API and the raw INSERT alternate by segments. */
const SEGMENT = 10;

/** API and raw INSERT of the same rows, alternating by segments; total ms of each. */
async function alternate(
  api: (from: number, to: number) => Promise<number>,
  raw: (from: number, to: number) => Promise<number>,
  batchCount: number,
  serverPid: number | undefined,
): Promise<{ apiMs: number; rawMs: number; serverCpuMs: number }> {
  let apiMs = 0;
  let rawMs = 0;
  let serverCpuMs = 0;
  for (let from = 0; from < batchCount; from += SEGMENT) {
    const to = Math.min(batchCount, from + SEGMENT);
    const cpu = cpuMs(serverPid);
    apiMs += await api(from, to);
    serverCpuMs += cpuMs(serverPid) - cpu;
    rawMs += await raw(from, to);
  }
  return { apiMs, rawMs, serverCpuMs };
}

/** CPU time a process used so far (user + system, all its threads), ms; 0 when unknown. */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

// ---------------------------------------------------------------------------------------------

interface Result {
  target: string;
  recordsApiMs: number;
  recordsRawMs: number;
  transactionsApiMs: number;
  transactionsRawMs: number;
  /** CPU time of the server process (all its threads: request thread, workers) while it ingested. */
  recordsServerCpuMs: number;
  transactionsServerCpuMs: number;
}

/**
 * Where the raw INSERT goes, from this process: on PostgreSQL the target's schema (installation
 * BENCHRAW); embedded, a second PGlite in the target's folder with the server's migrations (the
 * server owns its own) and an installation of its own.
 */
async function openRaw(
  target: Target,
): Promise<{ run: RunSql; installationId: string; close: () => Promise<void> }> {
  if (target.name === 'embedded') {
    const db = await PGlite.create({
      dataDir: join(target.env.DATA_DIR ?? '', 'raw-pglite'),
      extensions: { pg_trgm, unaccent },
    });
    const dir = join(REPO, 'apps/server/src/db/migrations');
    for (const file of readdirSync(dir)
      .filter((f) => /^\d{3}-.*\.sql$/.test(f))
      .sort())
      await db.exec(readFileSync(join(dir, file), 'utf8'));
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO installations (sync_id, client_id_hash) VALUES ('BENCHRAW', 'x') RETURNING id`,
    );
    return {
      run: (sql, params) => db.query(sql, params),
      installationId: rows[0]?.id ?? '',
      close: () => db.close(),
    };
  }
  const pool = new pg.Pool({ connectionString: target.env.DATABASE_URL, max: 1 });
  const { rows } = await pool.query<{ id: string }>(
    `SELECT id FROM installations WHERE sync_id = 'BENCHRAW'`,
  );
  return {
    run: (sql, params) => pool.query(sql, params),
    installationId: rows[0]?.id ?? '',
    close: () => pool.end(),
  };
}

async function countRows(run: RunSql, installationId: string): Promise<{ r: number; t: number }> {
  const res = (await run(
    `SELECT (SELECT count(*)::int FROM import_records WHERE installation_id = $1) AS r,
            (SELECT count(*)::int FROM transaction_logs WHERE installation_id = $1) AS t`,
    [installationId],
  )) as { rows: { r: number; t: number }[] };
  return res.rows[0] ?? { r: -1, t: -1 };
}

async function measure(name: TargetName, port: number): Promise<Result> {
  const target = await prepareTarget(name, 'connector', { entry: args.entry });
  try {
    // The first admin command migrates the database.
    const token = createInstallation(target, 'BENCHAPI', CLIENT_ID);
    if (name === 'postgres') createInstallation(target, 'BENCHRAW', CLIENT_ID);
    const recordBodies = batches(RECORDS, RECORD_BATCH, (n) => recordOf(n, 'APIREC'));
    const txBodies = batches(TRANSACTIONS, TX_BATCH, (n) => transactionOf(n, 'APITX'));
    // UTF-8 bytes ready to send: the client's own work stays out of the measure as far as it can.
    const recordJson = recordBodies.map((records) => Buffer.from(JSON.stringify({ records })));
    const txJson = txBodies.map((transactions) => Buffer.from(JSON.stringify({ transactions })));
    const raw = await openRaw(target);
    const profile = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${resolve(args.profile)}`] : [];
    const server = await startServer(target, port, profile, {}, args.entry ? resolve(args.entry) : undefined);
    try {
      const base = `http://127.0.0.1:${port}/api/connector/v1`;
      const recordRows = batches(RECORDS, RECORD_BATCH, (n) => storedRecord(raw.installationId, n, 'RAWREC'));
      const records = await alternate(
        (from, to) =>
          postBatches(
            `${base}/import-records`,
            token,
            recordJson.slice(from, to),
            recordBodies.slice(from, to).map((b) => b.length),
          ),
        (from, to) => rawInsert(raw.run, 'import_records', RECORD_COLUMNS, recordRows.slice(from, to)),
        recordJson.length,
        server.process.pid,
      );
      const txRows = batches(TRANSACTIONS, TX_BATCH, (n) => storedTransaction(raw.installationId, n));
      const transactions = await alternate(
        (from, to) =>
          postBatches(
            `${base}/transactions`,
            token,
            txJson.slice(from, to),
            txBodies.slice(from, to).map((b) => b.length),
          ),
        (from, to) => rawInsert(raw.run, 'transaction_logs', TX_COLUMNS, txRows.slice(from, to)),
        txJson.length,
        server.process.pid,
      );
      const counts = await countRows(raw.run, raw.installationId);
      if (counts.r !== RECORDS || counts.t !== TRANSACTIONS)
        throw new Error(`raw counts ${JSON.stringify(counts)}`);
      return {
        target: name,
        recordsApiMs: records.apiMs,
        recordsRawMs: records.rawMs,
        transactionsApiMs: transactions.apiMs,
        transactionsRawMs: transactions.rawMs,
        recordsServerCpuMs: records.serverCpuMs,
        transactionsServerCpuMs: transactions.serverCpuMs,
      };
    } finally {
      await stopServer(server);
      await raw.close();
    }
  } finally {
    await target.cleanup();
  }
}

// ---------------------------------------------------------------------------------------------

const nf = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const perThousand = (ms: number, rows: number) => ((ms * 1000) / rows).toFixed(0);
const rate = (rows: number, ms: number) => nf.format((rows * 1000) / ms).replace(/,/g, ' ');

function section(results: Result[], machine: string, migrations: string): string {
  const lines = [
    '## Connector API: ingestion',
    '',
    `Run \`npm run build -w @synchro/server && npx tsx bench/connector/ingest.ts\` (${RECORDS} import records of about ` +
      `2 KB of \`Enreg\` in batches of ${RECORD_BATCH}, ${TRANSACTIONS} transactions in batches of ${TX_BATCH}, ` +
      `${IN_FLIGHT} request${IN_FLIGHT > 1 ? 's' : ''} in flight; the built server as its own process).`,
    `Machine: ${machine}. Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. Migrations: ${migrations}.`,
    'Raw INSERT: the same rows, already in their stored form, as multi-row `INSERT … VALUES` statements of the same ' +
      'batch sizes into the same tables (same migrations: indexes and triggers), from the bench process (PostgreSQL: ' +
      'the same schema; embedded: a second PGlite of the bench process). API and raw INSERT alternate by segments of ' +
      `${SEGMENT} batches, so that both meet the same load of this shared machine.`,
    '',
    '| database | rows | through the API (rows/s) | raw INSERT (rows/s) | API ÷ raw | server CPU ms per 1 000 rows |',
    '|---|---|---:|---:|---:|---:|',
  ];
  for (const r of results) {
    const label = r.target === 'embedded' ? 'embedded (PGlite)' : 'PostgreSQL 127.0.0.1';
    lines.push(
      `| ${label} | import records | ${rate(RECORDS, r.recordsApiMs)} | ${rate(RECORDS, r.recordsRawMs)} | ${(r.recordsRawMs / r.recordsApiMs).toFixed(2)} | ${perThousand(r.recordsServerCpuMs, RECORDS)} |`,
      `| ${label} | transactions | ${rate(TRANSACTIONS, r.transactionsApiMs)} | ${rate(TRANSACTIONS, r.transactionsRawMs)} | ${(r.transactionsRawMs / r.transactionsApiMs).toFixed(2)} | ${perThousand(r.transactionsServerCpuMs, TRANSACTIONS)} |`,
    );
  }
  const pgResult = results.find((r) => r.target === 'postgres');
  if (pgResult) {
    const perSecond = (RECORDS * 1000) / pgResult.recordsApiMs;
    const records = pgResult.recordsRawMs / pgResult.recordsApiMs;
    const transactions = pgResult.transactionsRawMs / pgResult.transactionsApiMs;
    const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
    lines.push(
      '',
      `Goals on PostgreSQL (issue 18): ≥ 0.7 of the raw INSERT for import records (${records.toFixed(2)} → ` +
        `${met(records >= 0.7)}) and for transactions (${transactions.toFixed(2)} → ${met(transactions >= 0.7)}); ` +
        `≥ 10 000 import records/s through the API (${rate(RECORDS, pgResult.recordsApiMs)} → ${met(perSecond >= 10_000)}).`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const machine = describeMachine();
const migrations = spawnSync('ls', [join(REPO, 'apps/server/src/db/migrations')], { encoding: 'utf8' })
  .stdout.trim()
  .split('\n')
  .map((f) => f.slice(0, 3))
  .join(', ');
const targets: TargetName[] = args.db === 'both' ? ['embedded', 'postgres'] : [args.db as TargetName];
const results: Result[] = [];
for (const [i, name] of targets.entries()) {
  process.stdout.write(`${name}…\n`);
  const r = await measure(name, 5090 + i);
  process.stdout.write(
    `  records: API ${rate(RECORDS, r.recordsApiMs)}/s, raw ${rate(RECORDS, r.recordsRawMs)}/s; ` +
      `transactions: API ${rate(TRANSACTIONS, r.transactionsApiMs)}/s, raw ${rate(TRANSACTIONS, r.transactionsRawMs)}/s; ` +
      `server CPU per 1 000: records ${perThousand(r.recordsServerCpuMs, RECORDS)} ms, transactions ${perThousand(r.transactionsServerCpuMs, TRANSACTIONS)} ms\n`,
  );
  results.push(r);
}
const text = section(results, machine, migrations);
process.stdout.write(`\n${text}`);
if (!args['no-readme']) writeReadmeSection('bench/connector', text);
