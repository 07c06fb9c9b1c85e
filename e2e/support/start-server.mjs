// Starts the built server for the browser tests on a fresh embedded database holding one
// installation made from the real fixture, created through the admin command.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const port = process.env.E2E_PORT ?? '5055';
const dataDir = mkdtempSync(path.join(tmpdir(), 'synchro-e2e-'));
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: port,
  HOST: '127.0.0.1',
  PUBLIC_IP: '203.0.113.7',
  LOG_LEVEL: 'warn',
};

const created = spawnSync(
  process.execPath,
  [
    'apps/server/dist/cli.js',
    'create-installation',
    '--sync-id',
    'E2EDEMO1',
    '--client-id',
    'e2e-client-secret-4242',
    '--config',
    'apps/server/demo/connexion-ebp-gescom.xml',
    '--premium',
    '--options',
    '25;E2EDEMO1;A',
    '--software',
    '1;EBP GesCom Open Line;EBPGesComOL|2;EBP Gestion Open Line;GesCom',
  ],
  { env, stdio: ['ignore', 'inherit', 'inherit'] },
);
if (created.status !== 0) process.exit(created.status ?? 1);

const server = spawn(process.execPath, ['apps/server/dist/main.js'], { env, stdio: 'inherit' });
const stop = () => server.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
