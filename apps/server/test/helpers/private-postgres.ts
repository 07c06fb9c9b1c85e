import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A PostgreSQL cluster of the test's own (initdb in a temporary folder, a free port, its socket in
 * that folder), for the tests that stop PostgreSQL under load: the shared server of the machine is
 * never touched. initdb refuses root, so as root every command runs as `postgres` (runuser).
 */
export interface PrivatePostgres {
  url: string;
  port: number;
  /** pg_ctl start -w; milliseconds until it accepts connections. */
  start(): number;
  /** pg_ctl stop -m immediate: the server process ends at once, as in a crash. */
  crash(): void;
  /** SIGSTOP to its processes: it accepts connections (the kernel does) and never answers. */
  freeze(): void;
  /** SIGCONT to the processes freeze() stopped. */
  thaw(): void;
  /** Stops it (immediate) and removes its folder. */
  destroy(): void;
}

const PG_ROOT = '/usr/lib/postgresql';

function binDir(): string | null {
  if (!existsSync(PG_ROOT)) return null;
  const versions = readdirSync(PG_ROOT)
    .filter((v) => existsSync(join(PG_ROOT, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(PG_ROOT, versions[0], 'bin') : null;
}

const asRoot = process.getuid?.() === 0;

function run(command: string, args: string[]): { ok: boolean; output: string } {
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const res = spawnSync(file, argv, { encoding: 'utf8', timeout: 120_000 });
  return {
    ok: res.status === 0,
    output: `${res.stdout ?? ''}${res.stderr ?? ''}${res.error?.message ?? ''}`,
  };
}

/** Why a private cluster cannot be made here, or null when it can. */
export function privatePostgresUnavailable(): string | null {
  const bin = binDir();
  if (!bin) return `pas de binaires PostgreSQL dans ${PG_ROOT}/*/bin (initdb, pg_ctl)`;
  if (asRoot) {
    const probe = spawnSync('runuser', ['-u', 'postgres', '--', 'true'], { encoding: 'utf8' });
    if (probe.status !== 0)
      return `impossible de lancer initdb en tant que postgres (runuser : ${probe.stderr})`;
  }
  return null;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  if (!bin) throw new Error(privatePostgresUnavailable() ?? 'no PostgreSQL');
  const dir = mkdtempSync(join(tmpdir(), 'synchro-pg-'));
  chmodSync(dir, 0o755);
  if (asRoot) {
    const { uid, gid } = postgresIds();
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const init = run(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '-A',
    'trust',
    '--no-sync',
    '-E',
    'UTF8',
  ]);
  if (!init.ok) throw new Error(`initdb: ${init.output}`);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40`;
  let frozen: number[] = [];
  const logTail = () => (existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '');
  const pg: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start() {
      const t0 = Date.now();
      const res = run(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-o', options, '-w', '-t', '60', 'start']);
      if (!res.ok) throw new Error(`pg_ctl start: ${res.output}\n${logTail()}`);
      return Date.now() - t0;
    },
    crash() {
      const res = run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      if (!res.ok) throw new Error(`pg_ctl stop: ${res.output}\n${logTail()}`);
    },
    freeze() {
      frozen = processesOf(data);
      for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    },
    thaw() {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
      frozen = [];
    },
    destroy() {
      if (frozen.length > 0) pg.thaw();
      run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  pg.start();
  return pg;
}

function postgresIds(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error('no postgres user');
  return { uid: Number(uid), gid: Number(gid) };
}

/** The postmaster of a data folder (postmaster.pid) and its children. */
function processesOf(data: string): number[] {
  const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        // /proc/<pid>/stat: "pid (name) state ppid ..."; the name may hold spaces.
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}
