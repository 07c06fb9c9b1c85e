/** Where the bench's data lives, how it is seeded, and the server process (bench/history/run.ts). */
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';

export const REPO = resolve(import.meta.dirname, '../..');
export const DATA = join(import.meta.dirname, 'data');
export const SYNC_ID = 'BENCHHIST';
const CLIENT_ID = 'bench-history-client-id';
const PORT = 5391;
const POSTGRES_URL = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** The PostgreSQL database of the bench data (another one for a trial run of the scripts). */
export const BENCH_DB = process.env.BENCH_HISTORY_DB ?? 'synchro_bench_history';

export interface SeedSize {
  records: number;
  transactions: number;
  installations: number;
  /** Rows of each kind for each neighbour (seed-history's default: 1 %). */
  neighbourRows?: number;
  /** Seed again even when the data is there. */
  reseed: boolean;
}

// ---------------------------------------------------------------------------------------------
// Targets: where the data lives, how the server and the raw SQL reach it

export interface Target {
  name: 'embedded' | 'postgres';
  env: Record<string, string>;
  /** A raw SQL session (the server stopped on the embedded database). */
  open: () => Promise<RawDb>;
  reset: () => Promise<void>;
}

export interface RawDb {
  query: <T>(sql: string, params: unknown[]) => Promise<T[]>;
  close: () => Promise<void>;
}

export function postgresUrl(database: string): string {
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

export function embedded(): Target {
  const dir = join(DATA, 'embedded');
  return {
    name: 'embedded',
    env: { DATA_DIR: dir },
    async open() {
      const db = await PGlite.create({ dataDir: join(dir, 'pglite'), extensions: { pg_trgm, unaccent } });
      return {
        query: async <T>(sql: string, params: unknown[]) => (await db.query<T>(sql, params)).rows,
        close: () => db.close(),
      };
    },
    async reset() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function postgres(): Target {
  const url = postgresUrl(BENCH_DB);
  return {
    name: 'postgres',
    env: { DATABASE_URL: url, SESSION_SECRET: 'bench-history-session-secret-0123456789' },
    async open() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return {
        query: async <T>(sql: string, params: unknown[]) => (await client.query(sql, params)).rows as T[],
        close: () => client.end(),
      };
    },
    async reset() {
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${BENCH_DB}`);
        await admin.query(`CREATE DATABASE ${BENCH_DB}`);
      } finally {
        await admin.end();
      }
    },
  };
}

async function ensureDatabase(target: Target) {
  if (target.name !== 'postgres') return;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [BENCH_DB]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE ${BENCH_DB}`);
  } finally {
    await admin.end();
  }
}

function admin(target: Target, ...argv: string[]): string {
  const res = spawnSync(process.execPath, ['scripts/admin.mjs', ...argv], {
    cwd: REPO,
    env: { ...process.env, ...target.env, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 26,
  });
  if (res.status !== 0) throw new Error(`admin ${argv[0]} a échoué (${res.status})`);
  return res.stdout;
}

/**
 * Whether an earlier run seeded enough and finished: seed-history writes its audit entry
 * `history.seed` last, after VACUUM (ANALYZE); a seed stopped halfway has rows but no statistics,
 * and the planner then picks plans a hundred times slower (seen: search « devis » 1.4 s). The sizes
 * are the entry's (rows of every installation it seeded), not the rows left: retention.ts deletes
 * some, and a run after it would otherwise drop the data and seed it all again.
 */
async function seeded(target: Target, seed: SeedSize): Promise<boolean> {
  if (target.name === 'embedded' && !existsSync(join(DATA, 'embedded', 'pglite'))) return false;
  const db = await target.open();
  try {
    const rows = await db
      .query<{ records: string; transactions: string }>(
        `SELECT a.details->>'records' AS records, a.details->>'transactions' AS transactions
         FROM installations i JOIN audit_log a ON a.installation_id = i.id AND a.action = 'history.seed'
         WHERE i.sync_id = $1 ORDER BY a.at DESC LIMIT 1`,
        [SYNC_ID],
      )
      .catch(() => []);
    const row = rows[0];
    return (
      row !== undefined &&
      Number(row.records) >= seed.records &&
      Number(row.transactions) >= seed.transactions
    );
  } finally {
    await db.close();
  }
}

export async function prepare(target: Target, seed: SeedSize): Promise<number | null> {
  await ensureDatabase(target);
  await restoreIndexes(target);
  if (!seed.reseed && (await seeded(target, seed))) return null;
  await target.reset();
  mkdirSync(DATA, { recursive: true });
  admin(
    target,
    'create-installation',
    '--sync-id',
    SYNC_ID,
    '--client-id',
    CLIENT_ID,
    '--config',
    'apps/server/demo/connexion-ebp-gescom.xml',
    '--premium',
    '--bench',
  );
  const started = performance.now();
  await deferIndexes(target);
  console.log(`[${target.name}] seed-history…`);
  admin(
    target,
    'seed-history',
    '--sync-id',
    SYNC_ID,
    '--records',
    String(seed.records),
    '--transactions',
    String(seed.transactions),
    '--installations',
    String(seed.installations),
    ...(seed.neighbourRows === undefined ? [] : ['--neighbour-rows', String(seed.neighbourRows)]),
  );
  await restoreIndexes(target);
  return (performance.now() - started) / 1000;
}

// ---------------------------------------------------------------------------------------------
// Bulk seeding: the history's secondary indexes built once after the rows, not row by row

/** The bench database's only: a customer's server keeps its indexes while seed-history writes. */
const DEFERRED_TABLES = ['import_records', 'transaction_logs'];

function deferredIndexesFile(target: Target): string {
  return join(DATA, `deferred-indexes-${target.name === 'postgres' ? BENCH_DB : target.name}.json`);
}

/**
 * Drops the non-unique indexes of the seeded tables (the trigram, newest-first, errors and terminal
 * ones), their definitions kept in a file first. Maintained row by row they made the 10 000 000-row
 * seed write about 5 000 rows/s on a quiet machine (over two hours for the 40 000 000 rows of
 * 100 installations); the unique keys stay, seed-history's ON CONFLICT needs them.
 */
async function deferIndexes(target: Target): Promise<void> {
  const db = await target.open();
  try {
    const indexes = await db.query<{ name: string; definition: string }>(
      `SELECT i.indexname AS name, i.indexdef AS definition
       FROM pg_indexes i JOIN pg_class c ON c.relname = i.indexname JOIN pg_index x ON x.indexrelid = c.oid
       WHERE i.schemaname = 'public' AND i.tablename = ANY($1) AND NOT x.indisunique
         AND i.indexname NOT LIKE '%queue%'`,
      [DEFERRED_TABLES],
    );
    writeFileSync(deferredIndexesFile(target), JSON.stringify(indexes, null, 2));
    for (const { name } of indexes) await db.query(`DROP INDEX IF EXISTS public.${name}`, []);
  } finally {
    await db.close();
  }
}

/** Builds again what deferIndexes dropped (also after a run stopped halfway), then fresh statistics. */
async function restoreIndexes(target: Target): Promise<void> {
  const file = deferredIndexesFile(target);
  if (!existsSync(file)) return;
  const indexes = JSON.parse(readFileSync(file, 'utf8')) as { name: string; definition: string }[];
  const db = await target.open();
  try {
    const [table] = await db.query<{ found: string | null }>(
      `SELECT to_regclass('public.import_records')::text AS found`,
      [],
    );
    if (!table?.found) return rmSync(file); // the database was made again since
    await db.query(`SET maintenance_work_mem = '1GB'`, []);
    for (const { name, definition } of indexes) {
      const t0 = performance.now();
      await db.query(definition.replace(/^CREATE INDEX /, 'CREATE INDEX IF NOT EXISTS '), []);
      console.log(`[${target.name}] index ${name} : ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    for (const table of DEFERRED_TABLES) await db.query(`VACUUM (ANALYZE) ${table}`, []);
  } finally {
    await db.close();
  }
  rmSync(file);
}

// ---------------------------------------------------------------------------------------------
// The server process

export interface Server {
  process: ChildProcess;
  base: string;
  cookie: string;
}

export async function startServer(target: Target): Promise<Server> {
  const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: REPO,
    env: { ...process.env, ...target.env, PORT: String(PORT), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${PORT}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`le serveur s'est arrêté (${child.exitCode})`);
    const ok = await fetch(`${base}/api/user`).then(
      (r) => r.status === 401,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: SYNC_ID, password: CLIENT_ID }),
  });
  if (!login.ok) throw new Error(`connexion refusée : ${login.status} ${await login.text()}`);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { process: child, base, cookie };
}

export async function stopServer(server: Server) {
  const exited = new Promise((r) => server.process.once('exit', r));
  server.process.kill('SIGTERM');
  await exited;
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}
