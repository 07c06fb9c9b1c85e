import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_ROOT } from '../src/paths.ts';
import { inPostgresPass } from './helpers/passes.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'synchro-main-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(SERVER_ROOT, 'src/main.ts')], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      SESSION_SECRET: '',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      if (/Connexion\s+: http/.test(output)) {
        clearInterval(timer);
        resolve(output);
      }
    }, 100);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`server exited (${code}): ${output}`));
    });
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ready, exited, output: () => output };
}

describe.skipIf(inPostgresPass)('the server process', () => {
  it('creates the demo, prints a login link that works, refuses a second owner and stops cleanly', async () => {
    const server = startServer({ DATA_DIR: dataDir });
    const banner = await server.ready;
    const link = /Connexion\s+: (\S+)/.exec(banner)?.[1] ?? '';
    const url = new URL(link);
    expect(url.pathname).toBe('/auth');
    expect(url.searchParams.get('syncId')).toBe('DEMOA001');
    const base = `http://127.0.0.1:${url.port}`;

    const login = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({
        username: url.searchParams.get('syncId'),
        password: url.searchParams.get('clientId'),
      }),
    });
    expect(login.status).toBe(200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const dashboard = await fetch(`${base}/api/dashboard`, { headers: { cookie } });
    expect(dashboard.status).toBe(200);
    expect(await dashboard.json()).toMatchObject({
      syncId: 'DEMOA001',
      terminals: { authorised: 25, declared: 8 },
    });

    // A second process on the same folder is refused in French, the first keeps serving.
    const second = spawnSync(process.execPath, ['--import', 'tsx', join(SERVER_ROOT, 'src/main.ts')], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: '0' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(second.status).toBe(1);
    expect(second.stderr).toContain('est déjà utilisé par un autre processus');
    expect((await fetch(`${base}/api/user`, { headers: { cookie } })).status).toBe(200);

    // Ctrl-C under npm start delivers SIGINT twice (terminal and start.mjs): still a clean stop.
    server.child.kill('SIGINT');
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
    expect(existsSync(join(dataDir, 'synchro.lock'))).toBe(false);
  });

  it('explains a port already in use, and leaves the data folder free', async () => {
    const net = await import('node:net');
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const res = spawnSync(process.execPath, ['--import', 'tsx', join(SERVER_ROOT, 'src/main.ts')], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(res.status).toBe(1);
      expect(res.stderr).toContain(`le port ${port} est déjà utilisé par un autre programme`);
      expect(existsSync(join(dataDir, 'synchro.lock'))).toBe(false);
    } finally {
      blocker.close();
    }
  });

  it('refuses to start on PostgreSQL without SESSION_SECRET', () => {
    const res = spawnSync(process.execPath, ['--import', 'tsx', join(SERVER_ROOT, 'src/main.ts')], {
      env: { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', SESSION_SECRET: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('SESSION_SECRET est obligatoire avec DATABASE_URL');
  });

  it('explains an unreachable PostgreSQL', () => {
    const res = spawnSync(process.execPath, ['--import', 'tsx', join(SERVER_ROOT, 'src/main.ts')], {
      env: {
        ...process.env,
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
        SESSION_SECRET: 'x'.repeat(40),
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('Démarrage impossible : connexion à PostgreSQL (DATABASE_URL) impossible');
  });
});
