/**
 * What PostgreSQL itself spends on a batch of 500 import records, by the shape of its statements:
 * the raw INSERT of the ingestion bench (one unprepared 500-row statement, autocommit) against the
 * statements the connector API sends for the same rows (docs/connector-api.md). The backend's own
 * CPU time (user + system, from /proc: the database server must be on this machine) and the wall
 * time, the shapes alternating batch after batch on one connection each.
 *
 *   npm run build -w @synchro/server
 *   npx tsx bench/connector/statements.ts [--batches 40]
 *
 * Shapes: `raw` (the floor); `api` (BEGIN, 10 + 4 × 100 prepared + 90 rows with
 * `ON CONFLICT … RETURNING`, COMMIT); `api-one` (the same rows as one unprepared statement of
 * 500 with `ON CONFLICT … RETURNING`); `api-no-triggers` (`api` with the statement triggers of
 * import_records disabled: what they cost); `api-batch-counts` (`api` with the counters written
 * once for the batch, the server's current way, when the schema has it).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createInstallation, prepareTarget } from '../support/server.ts';
import { apiParams, apiStatement } from './api-statement.ts';
import { storedRecord } from './rows.ts';

const { values: args } = parseArgs({
  options: { batches: { type: 'string', default: '40' }, shapes: { type: 'string' } },
});
const BATCHES = Number(args.batches);
const BATCH = 500;

function rawStatement(
  installationId: string,
  ns: number[],
  prefix: string,
): { sql: string; params: unknown[] } {
  const cols =
    'installation_id, id_interne, type_enreg, ref_doc, date_heure, num_ligne, type_element, etat, log, enreg, has_file';
  const tuples: string[] = [];
  const params: unknown[] = [];
  for (const [i, n] of ns.entries()) {
    tuples.push(`(${Array.from({ length: 11 }, (_, c) => `$${i * 11 + c + 1}`).join(', ')})`);
    params.push(...storedRecord(installationId, n, prefix));
  }
  return { sql: `INSERT INTO import_records (${cols}) VALUES ${tuples.join(', ')}`, params };
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

interface Shape {
  name: string;
  installationId: string;
  client: pg.Client;
  pid: number;
  cpuMs: number;
  wallMs: number;
  run: (client: pg.Client, installationId: string, first: number) => Promise<void>;
}

async function apiShape(
  client: pg.Client,
  installationId: string,
  first: number,
  prefix: string,
  batchCounts = false,
) {
  await client.query(batchCounts ? 'BEGIN; SET LOCAL synchro.batch_counts = on' : 'BEGIN');
  const ids: string[] = [];
  let offset = first;
  for (const size of [10, 100, 100, 100, 100, 90]) {
    const prepared = size === 10 || size === 100;
    const { rows } = await client.query<{ id: string }>({
      text: apiStatement(size),
      values: apiParams(installationId, range(offset, size), prefix),
      ...(prepared ? { name: `probe_${size}` } : {}),
    });
    for (const r of rows) ids.push(r.id);
    offset += size;
  }
  if (batchCounts) await client.query('SELECT import_records_added($1, $2)', [installationId, ids]);
  await client.query('COMMIT');
}

const SHAPES: Record<string, (client: pg.Client, installationId: string, first: number) => Promise<void>> = {
  raw: async (client, installationId, first) => {
    const { sql, params } = rawStatement(installationId, range(first, BATCH), 'RAW');
    await client.query(sql, params);
  },
  api: (client, installationId, first) => apiShape(client, installationId, first, 'API'),
  'raw-no-triggers': async (client, installationId, first) => {
    const { sql, params } = rawStatement(installationId, range(first, BATCH), 'RAWNT');
    await client.query(sql, params);
  },
  'api-no-triggers': (client, installationId, first) => apiShape(client, installationId, first, 'NOTRIG'),
  'api-batch-counts': (client, installationId, first) =>
    apiShape(client, installationId, first, 'BATCH', true),
  'api-one': async (client, installationId, first) => {
    await client.query('BEGIN');
    await client.query(apiStatement(BATCH), apiParams(installationId, range(first, BATCH), 'ONE'));
    await client.query('COMMIT');
  },
};

function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const target = await prepareTarget('postgres', 'stmt');
try {
  const names = args.shapes ? args.shapes.split(',') : Object.keys(SHAPES);
  const shapes: Shape[] = [];
  for (const [i, name] of names.entries()) {
    const run = SHAPES[name];
    if (!run) throw new Error(`unknown shape ${name}`);
    createInstallation(target, `PROBE${i}`, 'bench-client-id-0001');
    const client = new pg.Client({ connectionString: target.env.DATABASE_URL });
    await client.connect();
    const { rows } = await client.query<{ id: string; pid: number }>(
      `SELECT id, pg_backend_pid() AS pid FROM installations WHERE sync_id = $1`,
      [`PROBE${i}`],
    );
    // This session only: no trigger fires (what the three statement triggers of an insert cost).
    if (name.endsWith('-no-triggers')) await client.query(`SET session_replication_role = replica`);
    shapes.push({
      name,
      installationId: rows[0]?.id ?? '',
      client,
      pid: rows[0]?.pid ?? 0,
      cpuMs: 0,
      wallMs: 0,
      run,
    });
  }
  for (let b = 0; b < BATCHES; b++) {
    for (const shape of shapes) {
      const cpu = cpuMs(shape.pid);
      const started = performance.now();
      await shape.run(shape.client, shape.installationId, b * BATCH);
      shape.wallMs += performance.now() - started;
      shape.cpuMs += cpuMs(shape.pid) - cpu;
    }
  }
  process.stdout.write(`${BATCHES} batches of ${BATCH} records, per batch:\n`);
  for (const s of shapes) {
    process.stdout.write(
      `  ${s.name.padEnd(18)} backend CPU ${(s.cpuMs / BATCHES).toFixed(1)} ms, wall ${(s.wallMs / BATCHES).toFixed(1)} ms\n`,
    );
    await s.client.end();
  }
} finally {
  await target.cleanup();
}
