import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readLastSync, parseConfig } from '@synchro/config-xml';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/types.ts';
import { getConfiguration } from '../src/domain/configurations.ts';
import { SERVER_ROOT } from '../src/paths.ts';
import { testApp } from './helpers/app.ts';
import { connectorInstallation } from './helpers/connector.ts';
import { openTestDb } from './helpers/db.ts';

/**
 * The real peers talking over HTTP: the server (buildApp, listening on a port) and the automate
 * simulator as its own `node` process (tools/automate-sim, bundled by its build script into a
 * folder of this run: the server's code never imports tools/). The simulator registers, an
 * import sync is ordered with the legacy protocol at the address it registered, and it plays the
 * sync through the connector API: records, transactions and its configuration parts land. A
 * second sync consumes the import queue.
 */

const REPO = resolve(SERVER_ROOT, '../..');
const SIM_DIR = join(REPO, 'node_modules', '.cache', `synchro-test-sim-${process.pid}`);

let db: Db;
let app: FastifyInstance;
let server: string;
let sim: ChildProcessWithoutNullStreams | null = null;
let simOutput = '';

beforeAll(async () => {
  // Inside the repository so that the bundle finds its node_modules (zod, saxes).
  mkdirSync(SIM_DIR, { recursive: true });
  const built = spawnSync(
    process.execPath,
    [join(REPO, 'tools/automate-sim/build.mjs'), '--outdir', SIM_DIR],
    {
      encoding: 'utf8',
    },
  );
  if (built.status !== 0) throw new Error(`simulator build failed: ${built.stderr}`);
  db = await openTestDb();
  // Loopback is allowed by default only for the demo installation on the embedded database
  // (network/automate-address.ts): the simulator runs here, for another installation.
  app = await testApp(db, { automateNetworks: 'loopback' });
  server = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  if (sim && sim.exitCode === null) {
    const exited = new Promise((r) => sim?.once('exit', r));
    sim.kill('SIGTERM');
    await exited;
  }
  await app?.close();
  await db?.close();
  rmSync(SIM_DIR, { recursive: true, force: true });
});

/** Resolves once the simulator's output matches `pattern` (after `from` characters). */
async function waitForOutput(pattern: RegExp, from = 0, timeoutMs = 45_000): Promise<RegExpExecArray> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const m = pattern.exec(simOutput.slice(from));
    if (m) return m;
    if (Date.now() > until || sim?.exitCode !== null)
      throw new Error(`simulator output never matched ${pattern}:\n${simOutput}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The legacy order (docs/spec-notes.md, Automate): GET http://IP:PORT/<base64 of the Automate XML>. */
async function sendOrder(ip: string, port: number, syncId: string, type: 'C' | 'R' | 'I') {
  const xml =
    `<Automate><IDInterne_Demande>${randomUUID()}</IDInterne_Demande><Instruction>SYNCHRO</Instruction>` +
    `<TimeStamp>${new Date().toISOString()}</TimeStamp><SYNCHRO><TypeSync>${type}</TypeSync>` +
    `<Connecteur_Exe>C:\\Nuxilog\\Connecteur.exe</Connecteur_Exe><Connecteur_Indice>12345</Connecteur_Indice>` +
    `<LCommande3/><IDSynchro>${syncId}</IDSynchro><IDDeviceDemandeur>Connecteur</IDDeviceDemandeur></SYNCHRO></Automate>`;
  const res = await fetch(`http://${ip}:${port}/${Buffer.from(xml, 'utf8').toString('base64')}`);
  expect(res.status).toBe(200);
  return res.text();
}

const count = async (sql: string, params: unknown[]) =>
  (await db.query<{ n: number }>(sql, params))[0]?.n ?? -1;

describe('the server and the automate simulator', () => {
  it('registers, plays an import sync through the connector API, then consumes the import queue', async () => {
    const inst = await connectorInstallation(db, 'SIMULE01');
    sim = spawn(
      process.execPath,
      [
        join(SIM_DIR, 'cli.js'),
        ...['--server', server, '--sync-id', inst.syncId, '--host', '127.0.0.1', '--port', '0'],
        ...['--seed', '7', '--records', '12', '--report-interval', '300'],
      ],
      { env: { ...process.env, AUTOMATE_TOKEN: inst.token }, stdio: 'pipe' },
    );
    sim.stdout.on('data', (d: Buffer) => (simOutput += d.toString()));
    sim.stderr.on('data', (d: Buffer) => (simOutput += d.toString()));

    // 1. It registers with its source address (loopback) and its order port.
    const [, port] = await waitForOutput(/en écoute sur le port (\d+)/);
    await waitForOutput(/automate enregistré à 127\.0\.0\.1:(\d+)/);
    const [registration] = await db.query<{ ip: string; port: number; version: string }>(
      'SELECT ip, port, version FROM automate_registrations WHERE installation_id = $1',
      [inst.id],
    );
    expect(registration).toEqual({ ip: '127.0.0.1', port: Number(port), version: '6.11.23.9' });
    expect(simOutput).not.toContain(inst.token);

    // 2. An import sync ordered at the registered address.
    const before = await getConfiguration(db, inst.id);
    const answer = await sendOrder(registration?.ip ?? '', registration?.port ?? 0, inst.syncId, 'I');
    expect(answer).toContain('<RetSync>1</RetSync>');
    const [, recordsSent, transactionsSent] = await waitForOutput(
      /terminée en \d+ ms : (\d+) enregistrements, (\d+) transactions/,
    );
    expect(Number(recordsSent)).toBe(12);
    expect(
      await count('SELECT count(*)::int AS n FROM import_records WHERE installation_id = $1', [inst.id]),
    ).toBe(12);
    expect(Number(transactionsSent)).toBeGreaterThan(0);
    expect(
      await count('SELECT count(*)::int AS n FROM transaction_logs WHERE installation_id = $1', [inst.id]),
    ).toBe(Number(transactionsSent));
    // Its configuration parts, written by the connector as the next version.
    const after = await getConfiguration(db, inst.id);
    expect(after.version).toBeGreaterThan(before.version);
    expect(readLastSync(parseConfig(after.text)).type).toBe('Import des saisies');
    const [author] = await db.query<{ author: string }>(
      'SELECT author FROM configuration_versions WHERE installation_id = $1 AND version = $2',
      [inst.id, after.version],
    );
    expect(author?.author).toBe('connector');
    // Texts as the connector sent them for the XML, decoded for the short columns.
    const [accented] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM import_records WHERE installation_id = $1 AND enreg LIKE '%Ã%'`,
      [inst.id],
    );
    expect(accented?.n).toBeGreaterThan(0);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM transaction_logs WHERE installation_id = $1 AND libelle_tablette LIKE '%Ã%'`,
        [inst.id],
      ),
    ).toBe(0);

    // 3. Records set back to 0 (as the console does) are imported at the next sync.
    await db.query(
      `UPDATE import_records SET etat = 0 WHERE id IN (
         SELECT id FROM import_records WHERE installation_id = $1 ORDER BY id LIMIT 3)`,
      [inst.id],
    );
    const queued = await count(
      `SELECT count(*)::int AS n FROM import_records WHERE installation_id = $1 AND etat = 0`,
      [inst.id],
    );
    expect(queued).toBeGreaterThanOrEqual(3);
    const mark = simOutput.length;
    expect(await sendOrder('127.0.0.1', Number(port), inst.syncId, 'R')).toContain('<RetSync>1</RetSync>');
    const [, imported, rejected] = await waitForOutput(
      /terminée en \d+ ms : .*?(\d+) importés et (\d+) rejetés de la file/,
      mark,
    );
    expect(Number(imported) + Number(rejected)).toBe(queued);
    expect(
      await count(`SELECT count(*)::int AS n FROM import_records WHERE installation_id = $1 AND etat = 0`, [
        inst.id,
      ]),
    ).toBe(0);
    expect(
      await count(`SELECT count(*)::int AS n FROM import_records WHERE installation_id = $1 AND log <> ''`, [
        inst.id,
      ]),
    ).toBeGreaterThanOrEqual(queued);
  });
});
