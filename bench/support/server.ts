/**
 * The built server as a process of its own, for the benches of bench/load, bench/delivery and
 * bench/connector: a fresh database (a temporary DATA_DIR, or a schema of its own in the
 * PostgreSQL at POSTGRES_URL, dropped at the end), the admin command, sign-in, the process's
 * memory, the README section.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';

export const REPO = resolve(import.meta.dirname, '../..');
const POSTGRES_URL = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type TargetName = 'embedded' | 'postgres';

export interface Target {
  name: TargetName;
  env: Record<string, string>;
  cleanup: () => Promise<void>;
  /** The admin command of the build measured (its migrations make the database). */
  cli: string;
}

/** The admin command beside a build's `main.js` (REPO's own build by default). */
const cliOf = (entry: string | undefined) =>
  entry ? join(dirname(resolve(entry)), 'cli.js') : join(REPO, 'apps/server/dist/cli.js');

/** The schema a bench keeps between runs (prepareTarget's `keep`). */
export const keptSchema = (label: string) => `bench_${label}_kept`;

/**
 * A fresh database: a temporary folder, or the schema `bench_<label>_<pid>` of POSTGRES_URL.
 * `keep` (PostgreSQL only): the schema `bench_<label>_kept`, created when missing and left in
 * place, so that a seed of tens of minutes serves several measuring runs. `entry`: another
 * build's `main.js` (a « before »): its own admin command makes the database.
 */
export async function prepareTarget(
  name: TargetName,
  label: string,
  { keep = false, entry }: { keep?: boolean; entry?: string | undefined } = {},
): Promise<Target> {
  const cli = cliOf(entry);
  const secret = randomBytes(24).toString('hex');
  if (name === 'embedded') {
    if (keep) throw new Error('keep: PostgreSQL only (the embedded database lives in a temporary folder)');
    const dataDir = mkdtempSync(join(tmpdir(), `synchro-bench-${label}-`));
    return {
      name,
      env: { DATA_DIR: dataDir, DATABASE_URL: '', SESSION_SECRET: secret, DEMO_AUTOMATE: '0' },
      cli,
      cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const schema = keep ? keptSchema(label) : `bench_${label}_${process.pid}`;
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA ${keep ? 'IF NOT EXISTS ' : ''}${schema}`);
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
  } finally {
    await client.end();
  }
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema},public`);
  const dataDir = mkdtempSync(join(tmpdir(), `synchro-bench-${label}-`));
  return {
    name,
    env: { DATABASE_URL: url.toString(), SESSION_SECRET: secret, DATA_DIR: dataDir },
    cli,
    cleanup: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      if (keep) return;
      const c = new pg.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      try {
        await c.query(`DROP SCHEMA ${schema} CASCADE`);
      } finally {
        await c.end();
      }
    },
  };
}

/** One admin command (the built `dist/cli.js` of the target's build); its standard output. */
export function admin(target: Target, ...argv: string[]): string {
  const res = spawnSync(process.execPath, [target.cli, ...argv], {
    env: { ...process.env, ...target.env, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (res.status !== 0) throw new Error(`admin ${argv[0]}: ${res.stderr}`);
  return res.stdout;
}

/**
 * An installation with the demo configuration (as the e2e server makes it), or the one in the file
 * `config`; its connector token.
 */
export function createInstallation(
  target: Target,
  syncId: string,
  clientId: string,
  config = join(REPO, 'apps/server/demo/connexion-ebp-gescom.xml'),
): string {
  const out = admin(
    target,
    'create-installation',
    ...['--sync-id', syncId, '--client-id', clientId],
    ...['--config', config],
    '--premium',
    ...['--options', `25;${syncId};A`],
    ...['--software', '1;EBP GesCom Open Line;EBPGesComOL|2;EBP Gestion Open Line;GesCom'],
    // A bench installation: seed-history may fill it (docs/history.md, Seed).
    '--bench',
  );
  const last = out.trim().split('\n').pop() ?? '{}';
  return (JSON.parse(last) as { connectorToken: string }).connectorToken;
}

export interface Server {
  process: ChildProcess;
  base: string;
}

export interface StartOptions {
  /** More environment for the server (LOG_LEVEL is warn otherwise). */
  env?: Record<string, string>;
  /** 'pipe': the caller reads (and must drain) the server's standard output. */
  stdout?: 'pipe' | 'ignore';
}

/**
 * The built server (`apps/server/dist/main.js`, or `entry`: another build's), ready once /api/user
 * answers 401. `nodeArgs`: options of node itself (`--cpu-prof`…).
 */
export async function startServer(
  target: Target,
  port: number,
  nodeArgs: string[] = [],
  options: StartOptions = {},
  entry = join(REPO, 'apps/server/dist/main.js'),
): Promise<Server> {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first`);
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    cwd: REPO,
    env: {
      ...process.env,
      ...target.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', options.stdout ?? 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server stopped (${child.exitCode})`);
    const up = await fetch(`${base}/api/user`).then(
      (r) => r.status === 401,
      () => false,
    );
    if (up) return { process: child, base };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGTERM');
  throw new Error(`the server did not answer at ${base}`);
}

export async function stopServer(server: Server): Promise<void> {
  if (server.process.exitCode !== null) return;
  const exited = new Promise((r) => server.process.once('exit', r));
  server.process.kill('SIGTERM');
  await exited;
}

/** POST /api/login; the `Cookie` header of the session. */
export async function signIn(base: string, syncId: string, clientId: string): Promise<string> {
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ username: syncId, password: clientId }),
  });
  if (!res.ok) throw new Error(`sign-in refused: ${res.status} ${await res.text()}`);
  return (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

/** Resident memory of a process, MB (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Puts `text` between `<!-- <name>: start -->` and its end marker in bench/README.md. */
export function writeReadmeSection(name: string, text: string): void {
  const file = join(REPO, 'bench/README.md');
  const start = `<!-- ${name}: start -->`;
  const end = `<!-- ${name}: end -->`;
  const readme = readFileSync(file, 'utf8');
  const block = `${start}\n${text.trimEnd()}\n\n${end}`;
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  writeFileSync(
    file,
    from >= 0 && to > from
      ? readme.slice(0, from) + block + readme.slice(to + end.length)
      : `${readme.trimEnd()}\n\n${block}\n`,
  );
}

/** The text between a section's markers in bench/README.md ('' when absent). */
export function readmeSection(name: string): string {
  const readme = readFileSync(join(REPO, 'bench/README.md'), 'utf8');
  const start = `<!-- ${name}: start -->`;
  const from = readme.indexOf(start);
  const to = readme.indexOf(`<!-- ${name}: end -->`);
  return from >= 0 && to > from ? readme.slice(from + start.length, to) : '';
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
