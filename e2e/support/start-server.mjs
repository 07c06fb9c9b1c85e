// Starts the built server for the browser tests on a fresh embedded database holding the
// installations made from the real fixture (created through the admin command), and the automate
// simulator of the e2e installation, as the real peer of the sync buttons.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { buildSimulatorIfNeeded } from '../../scripts/build-if-needed.mjs';

const port = process.env.E2E_PORT ?? '5055';
const dataDir = mkdtempSync(path.join(tmpdir(), 'synchro-e2e-'));
// Read by the specs that put the connector's parts of the configuration back (support/connector.ts).
const tokenFile = path.join(tmpdir(), `synchro-e2e-${port}-connector-token`);
// The second installation's, read by the specs that send it transactions (no simulator writes
// there: its figures are the spec's alone).
const offlineTokenFile = path.join(tmpdir(), `synchro-e2e-${port}-offline-connector-token`);
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: port,
  HOST: '127.0.0.1',
  PUBLIC_IP: '203.0.113.7',
  LOG_LEVEL: 'warn',
  // The simulator of E2EDEMO1 (and E2EOFF01's silent automate) are on loopback, which the default
  // policy allows only to the demo installation DEMOA001 (docs/connector-api.md, Automate address).
  AUTOMATE_NETWORKS: 'public,loopback',
  // Three of the four support links of Général, set when the server starts (docs/production.md).
  SUPPORT_REMOTE_URL: 'https://anydesk.com/fr/downloads',
  SUPPORT_SITE_URL: 'https://support.editeur.example/',
  SUPPORT_CUSTOMER_URL: 'https://clients.editeur.example/',
};
const SOFTWARE = '1;EBP GesCom Open Line;EBPGesComOL|2;EBP Gestion Open Line;GesCom';

/** `create-installation` through the admin command (client id on its standard input); its connector token. */
function createInstallation(syncId, clientId) {
  const created = spawnSync(
    process.execPath,
    [
      'apps/server/dist/cli.js',
      'create-installation',
      ...['--sync-id', syncId, '--client-id', '-'],
      ...['--config', 'apps/server/demo/connexion-ebp-gescom.xml'],
      '--premium',
      ...['--options', `25;${syncId};A`, '--software', SOFTWARE],
    ],
    { env, encoding: 'utf8', input: `${clientId}\n`, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  if (created.status !== 0) process.exit(created.status ?? 1);
  return JSON.parse(created.stdout.trim().split('\n').at(-1)).connectorToken;
}

if (!buildSimulatorIfNeeded()) process.exit(1);
const token = createInstallation('E2EDEMO1', 'e2e-client-secret-4242');
const offlineToken = createInstallation('E2EOFF01', 'e2e-offline-secret-4242');

// The second installation's automate last reported 30 hours ago (port 9 of loopback: nobody
// listens), written before the server opens the database: the dashboard shows it offline.
const pg = await PGlite.create({ dataDir: path.join(dataDir, 'pglite'), extensions: { pg_trgm } });
await pg.query(
  `INSERT INTO automate_registrations (installation_id, ip, port, version, machine_name, first_reported_at, reported_at)
   SELECT id, '127.0.0.1', 9, '6.10.2.1', 'SRV-ANCIEN', now() - interval '40 days', now() - interval '30 hours'
   FROM installations WHERE sync_id = 'E2EOFF01'`,
);
await pg.close();
writeFileSync(tokenFile, token, { mode: 0o600 });
writeFileSync(offlineTokenFile, offlineToken, { mode: 0o600 });

const server = spawn(process.execPath, ['apps/server/dist/main.js'], { env, stdio: 'inherit' });
let simulator = null;

async function startSimulator() {
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600 && server.exitCode === null; i += 1) {
    const up = await fetch(`${url}/auth`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  // The token in its environment, never on its command line; an IPC channel: it stops with us.
  simulator = spawn(
    process.execPath,
    [
      'tools/automate-sim/dist/cli.js',
      ...['--server', url, '--sync-id', 'E2EDEMO1', '--host', '127.0.0.1', '--ip', '127.0.0.1'],
      // --latency: the order's answer takes 1.5 s, long enough to see the busy buttons.
      ...['--seed', '4242', '--records', '12', '--machine-name', 'SRV-E2E', '--latency', '1500'],
    ],
    { env: { PATH: process.env.PATH, AUTOMATE_TOKEN: token }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
  );
}
void startSimulator();

const stop = () => {
  simulator?.kill('SIGTERM');
  server.kill('SIGTERM');
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => {
  simulator?.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(tokenFile, { force: true });
  rmSync(offlineTokenFile, { force: true });
  process.exit(code ?? 0);
});
