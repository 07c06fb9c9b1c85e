import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A second built server for the specs that need settings the shared one has not (an SMTP relay, a
 * drive provider): a free port of its own, its own embedded database, one installation created through the
 * admin command, stopped by the spec.
 */
export interface OwnServer {
  url: string;
  syncId: string;
  clientId: string;
  /** The installation's connector API token (create-installation's JSON line). */
  connectorToken: string;
  stop(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A port of 127.0.0.1 free now (taken, then given back), so that other sessions' ports are never used. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startOwnServer(extraEnv: Record<string, string>): Promise<OwnServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'synchro-e2e-own-'));
  const url = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DEMO: '0',
    PUBLIC_URL: url,
    ...extraEnv,
  };
  const syncId = 'E2EMAIL1';
  const clientId = 'e2e-mail-secret-4242';
  const created = spawnSync(
    process.execPath,
    [
      'apps/server/dist/cli.js',
      'create-installation',
      ...['--sync-id', syncId, '--client-id', '-'],
      ...['--config', 'apps/server/demo/connexion-ebp-gescom.xml'],
      '--premium',
      ...['--options', `25;${syncId};A`],
    ],
    { cwd: ROOT, env, encoding: 'utf8', input: `${clientId}\n`, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  if (created.status !== 0) throw new Error(`create-installation: ${created.status}`);
  const { connectorToken } = JSON.parse(created.stdout.trim().split('\n').at(-1) ?? '{}') as {
    connectorToken: string;
  };
  const server: ChildProcess = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 600 && server.exitCode === null; i += 1) {
    const up = await fetch(`${url}/auth`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (server.exitCode !== null) throw new Error(`server exited: ${server.exitCode}`);
  return {
    url,
    syncId,
    clientId,
    connectorToken,
    async stop() {
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
