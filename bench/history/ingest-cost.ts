/**
 * What migration 004 (folded search columns, trigram and covering indexes, day counters kept by
 * statement triggers) costs the connector's ingestion: the same batches, with the connector API's
 * own multi-row statements (copied from apps/server/src/features/connector), into a database
 * migrated up to 003 and into one migrated up to 004, in the same run, on PGlite (in memory) and on
 * PostgreSQL (two fresh schemas, dropped at the end). Both start with the same rows already in
 * (--prefill), since index upkeep grows with the index.
 *
 *   npx tsx bench/history/ingest-cost.ts [--prefill 100000] [--batches 40] [--db both|embedded|postgres]
 */
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { describeMachine } from '../config-xml/machine.ts';
import { writeReadme, type IngestResult, type IngestRow } from './report.ts';

const REPO = resolve(import.meta.dirname, '../..');
const MIGRATIONS = join(REPO, 'apps/server/src/db/migrations');
const POSTGRES_URL = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const { values: args } = parseArgs({
  options: {
    prefill: { type: 'string', default: '100000' },
    batches: { type: 'string', default: '40' },
    db: { type: 'string', default: 'both' },
  },
});
const PREFILL = Number(args.prefill);
const BATCHES = Number(args.batches);
const RECORD_BATCH = 500;
const TX_BATCH = 1000;

interface Sql {
  query: (sql: string, params?: unknown[]) => Promise<unknown[]>;
  exec: (sql: string) => Promise<void>;
  close: () => Promise<void>;
}

function migrationsUpTo(version: number): string[] {
  return readdirSync(MIGRATIONS)
    .filter((f) => /^\d{3}-.*\.sql$/.test(f) && Number(f.slice(0, 3)) <= version)
    .sort()
    .map((f) => readFileSync(join(MIGRATIONS, f), 'utf8'));
}

async function pglite(): Promise<Sql> {
  const db = await PGlite.create({ extensions: { pg_trgm, unaccent } });
  return {
    query: async (sql, params = []) => (await db.query(sql, params)).rows,
    exec: async (sql) => void (await db.exec(sql)),
    close: () => db.close(),
  };
}

async function postgresSchema(): Promise<Sql> {
  const schema = `bench_ingest_${randomBytes(4).toString('hex')}`;
  const pool = new pg.Pool({
    connectionString: POSTGRES_URL,
    max: 1,
    options: `-c search_path=${schema},public`,
  });
  await pool.query(`CREATE SCHEMA ${schema}`);
  return {
    query: async (sql, params = []) => (await pool.query(sql, params)).rows,
    exec: async (sql) => void (await pool.query(sql)),
    close: async () => {
      await pool.query(`DROP SCHEMA ${schema} CASCADE`);
      await pool.end();
    },
  };
}

// The connector API's statements (features/connector/import-records.ts and transactions.ts).
const INSERT_RECORDS = `INSERT INTO import_records (installation_id, id_interne, type_enreg, ref_doc, date_heure,
    num_ligne, type_element, etat, log, enreg, has_file, sent_texts, received_at, updated_at)
  SELECT $1, r.*, $13, $13
  FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::int[], $7::text[], $8::smallint[],
    $9::text[], $10::text[], $11::boolean[], $12::jsonb[]) AS r
  ON CONFLICT (installation_id, id_interne) DO NOTHING
  RETURNING id, id_interne AS "idInterne"`;
const INSERT_TRANSACTIONS = `WITH inserted AS (INSERT INTO transaction_logs (installation_id, tx_id, err, date_heure_trt,
    num_transaction, type_doc, ref_doc, id_tablette, libelle_tablette, log, received_at)
  SELECT $1, t.*, $11
  FROM unnest($2::text[], $3::smallint[], $4::timestamptz[], $5::text[], $6::text[], $7::text[], $8::text[],
    $9::text[], $10::text[]) AS t
  ON CONFLICT (installation_id, tx_id) DO NOTHING RETURNING 1) SELECT count(*)::int AS n FROM inserted`;

const ENREG = `<SyncNuxiDev><DateHeureExport>20251114091200000</DateHeureExport><Device>815bf75ff86d94fa</Device><Table>documentdevis</Table><Enregistrement>${'<Champ>valeur du champ Ã©crite par le terminal</Champ>'.repeat(36)}</Enregistrement></SyncNuxiDev>`;

function recordBatch(installationId: string, n: number, start: number) {
  const ids = Array.from({ length: n }, (_, i) => start + i);
  const at = ids.map((i) => new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString());
  return [
    installationId,
    ids.map((i) => `NUXIDEVA${i.toString(16).padStart(16, '0')}`),
    ids.map((i) => (i % 3 === 0 ? 'Intervention' : 'DocumentDEVIS')),
    ids.map((i) => `XX_${String(i * 7919).padStart(12, '0')}`),
    at,
    ids.map((i) => i % 12),
    ids.map(() => 'Création'),
    ids.map((i) => (i % 100 === 0 ? -1 : 1)),
    ids.map((i) => `Import rÃ©ussi ${i}`),
    ids.map(() => ENREG),
    ids.map(() => false),
    ids.map(() => null),
    new Date().toISOString(),
  ];
}

function transactionBatch(installationId: string, n: number, start: number) {
  const ids = Array.from({ length: n }, (_, i) => start + i);
  return [
    installationId,
    ids.map((i) => `T-${i}`),
    ids.map((i) => (i % 100 === 0 ? 1 : 0)),
    ids.map((i) => new Date(Date.UTC(2025, 0, 1) + i * 30_000).toISOString()),
    ids.map((i) => String(i)),
    ids.map((i) => ['DEVIS', 'CLIENTS', 'ARTICLES'][i % 3] ?? ''),
    ids.map((i) => `XX_${String(i * 7919).padStart(12, '0')}`),
    ids.map((i) => `815bf75ff86d94${(i % 24).toString(16).padStart(2, '0')}`),
    ids.map((i) => `pixel ${i % 24}`),
    ids.map((i) => `RÃ©ception DEVIS ${i}\r\nContrÃ´le du lot : 12 Ã©lÃ©ments\r\nTransaction terminÃ©e.`),
    new Date().toISOString(),
  ];
}

async function prepare(db: Sql, upTo: number): Promise<string> {
  for (const sql of migrationsUpTo(upTo)) await db.exec(sql);
  const [row] = (await db.query(
    `INSERT INTO installations (sync_id, client_id_hash) VALUES ('INGEST', 'x') RETURNING id`,
  )) as { id: string }[];
  const id = row?.id ?? '';
  for (let start = 0; start < PREFILL; start += 10_000) {
    const n = Math.min(10_000, PREFILL - start);
    for (let k = 0; k < n; k += RECORD_BATCH)
      await db.query(INSERT_RECORDS, recordBatch(id, RECORD_BATCH, 10_000_000 + start + k));
    await db.query(INSERT_TRANSACTIONS, transactionBatch(id, n, 10_000_000 + start));
  }
  await db.exec('ANALYZE');
  return id;
}

async function timeBatches(db: Sql, id: string) {
  const records: number[] = [];
  const transactions: number[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const r = recordBatch(id, RECORD_BATCH, b * RECORD_BATCH);
    let t0 = performance.now();
    await db.query(INSERT_RECORDS, r);
    records.push(performance.now() - t0);
    const t = transactionBatch(id, TX_BATCH, b * TX_BATCH);
    t0 = performance.now();
    await db.query(INSERT_TRANSACTIONS, t);
    transactions.push(performance.now() - t0);
  }
  return { records, transactions };
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? 0;
const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;

const measured: IngestRow[] = [];
for (const kind of args.db === 'both' ? ['embedded', 'postgres'] : [args.db]) {
  const open = kind === 'embedded' ? pglite : postgresSchema;
  const before = await open();
  const after = await open();
  try {
    const idBefore = await prepare(before, 3);
    const idAfter = await prepare(after, 4);
    // One database after the other (alternating batch by batch would mix their caches).
    const a = await timeBatches(before, idBefore);
    const b = await timeBatches(after, idAfter);
    for (const [batch, x, y, size] of [
      ['500 records', a.records, b.records, RECORD_BATCH],
      ['1 000 transactions', a.transactions, b.transactions, TX_BATCH],
    ] as const) {
      const row: IngestRow = {
        db: kind === 'embedded' ? 'embedded' : 'postgres',
        batch,
        size,
        beforeMedian: median(x),
        beforeMean: mean(x),
        afterMedian: median(y),
        afterMean: mean(y),
      };
      measured.push(row);
      console.log(JSON.stringify(row));
    }
  } finally {
    await before.close();
    await after.close();
  }
}
const DATA = join(import.meta.dirname, 'data');
mkdirSync(DATA, { recursive: true });
const result: IngestResult = {
  machine: describeMachine(),
  date: new Date().toISOString().slice(0, 16).replace('T', ' '),
  load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
  prefill: PREFILL,
  batches: BATCHES,
  rows: measured,
};
writeFileSync(join(DATA, 'ingest-cost.json'), JSON.stringify(result, null, 2));
writeReadme(DATA, join(REPO, 'bench/README.md'));
