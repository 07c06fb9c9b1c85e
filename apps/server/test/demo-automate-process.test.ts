import { spawn, spawnSync } from 'node:child_process';
import { ZDashboardView } from '@synchro/contracts';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../src/db/pglite.ts';
import { AUTOMATE_SIM_CLI, SERVER_ROOT } from '../src/paths.ts';
import { inPostgresPass } from './helpers/passes.ts';

/**
 * The demo's automate simulator in the product (docs/server.md, Demo automate): the server on a
 * fresh embedded database starts one for the demo installation with a new token handed through
 * its environment; the sync buttons work; the simulator stops with the server, on Ctrl-C and when
 * the server is killed.
 */

const REPO = resolve(SERVER_ROOT, '../..');
const dataDir = mkdtempSync(join(tmpdir(), 'synchro-demo-automate-'));

beforeAll(() => {
  const built = spawnSync(process.execPath, [join(REPO, 'tools/automate-sim/build.mjs')], {
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`simulator build failed: ${built.stderr}`);
  expect(existsSync(AUTOMATE_SIM_CLI)).toBe(true);
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function startServer() {
  const child = spawn(process.execPath, ['--import', 'tsx', join(SERVER_ROOT, 'src/main.ts')], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SESSION_SECRET: '',
      AUTOMATE_NETWORKS: '',
      DEMO_AUTOMATE: '',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const started = (async () => {
    const until = Date.now() + 60_000;
    for (;;) {
      const pid = /Simulateur d'automate démarré pour DEMOA001 \(PID (\d+)\)/.exec(output)?.[1];
      const link = /Connexion\s+: (\S+)/.exec(output)?.[1];
      if (pid && link) return { simPid: Number(pid), link: new URL(link) };
      if (child.exitCode !== null || Date.now() > until) throw new Error(`no simulator: ${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return { child, started, exited, output: () => output };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function signedIn(link: URL) {
  const base = `http://127.0.0.1:${link.port}`;
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({
      username: link.searchParams.get('syncId'),
      password: link.searchParams.get('clientId'),
    }),
  });
  expect(login.status).toBe(200);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: { cookie, origin: base, 'content-type': 'application/json' },
    });
  return call;
}

describe.skipIf(inPostgresPass)('the demo automate', () => {
  it('starts with the server, makes the sync buttons work, and stops with it (kill -9, then Ctrl-C)', async () => {
    // 1. A fresh data folder: the demo and its simulator.
    const first = startServer();
    const { simPid, link } = await first.started;
    // The token is in its environment, never on its command line.
    const cmdline = readFileSync(`/proc/${simPid}/cmdline`, 'utf8').split('\0');
    expect(cmdline).not.toContain('--token');
    const environ = readFileSync(`/proc/${simPid}/environ`, 'utf8').split('\0');
    const token = environ.find((e) => e.startsWith('AUTOMATE_TOKEN='))?.slice('AUTOMATE_TOKEN='.length) ?? '';
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(cmdline.join(' ')).not.toContain(token);
    expect(environ.some((e) => e.startsWith('DATA_DIR=') || e.startsWith('SESSION_SECRET='))).toBe(false);

    const call = await signedIn(link);
    const dashboard = async () => ZDashboardView.parse(await (await call('/api/dashboard')).json());
    await expect.poll(async () => (await dashboard()).automateService.online, { timeout: 30_000 }).toBe(true);
    const before = Date.now();
    for (const type of ['C', 'R', 'I']) {
      const res = await call('/api/sync-automate', { method: 'POST', body: JSON.stringify({ type }) });
      const answer = (await res.json()) as { retSync: number; outcome: string; retInfo: string };
      expect(answer, answer.retInfo).toMatchObject({ retSync: 1, outcome: 'accepted' });
      // The simulator refuses an order while it plays the previous sync: wait for its DerSynchro.
      await expect
        .poll(async () => Date.parse((await dashboard()).lastSync.at ?? '') >= before - 1000, {
          timeout: 30_000,
        })
        .toBe(true);
      await new Promise((r) => setTimeout(r, 500));
    }

    // 2. The server is killed: its simulator goes too (the IPC channel closed).
    first.child.kill('SIGKILL');
    await first.exited;
    await expect.poll(() => alive(simPid), { timeout: 10_000 }).toBe(false);

    // 3. Started again: a new token; Ctrl-C stops both.
    const second = startServer();
    const again = await second.started;
    expect(again.simPid).not.toBe(simPid);
    const newToken = readFileSync(`/proc/${again.simPid}/environ`, 'utf8')
      .split('\0')
      .find((e) => e.startsWith('AUTOMATE_TOKEN='));
    expect(newToken).toBeDefined();
    expect(newToken).not.toBe(`AUTOMATE_TOKEN=${token}`);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    expect(alive(again.simPid)).toBe(false);
    expect(second.output()).not.toContain(token);

    // Both rotations are audited as the system's, without the token.
    const db = await openPglite(join(dataDir, 'pglite'));
    try {
      const rows = await db.query<{ actor: string; details: unknown }>(
        `SELECT actor, details FROM audit_log WHERE action = 'installation.rotate-connector-token' ORDER BY id`,
      );
      expect(rows).toEqual([
        { actor: 'system', details: { reason: 'demo-automate' } },
        { actor: 'system', details: { reason: 'demo-automate' } },
      ]);
    } finally {
      await db.close();
    }
  }, 180_000);
});
