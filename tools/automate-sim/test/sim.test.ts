/**
 * The whole simulator, in-process, against a scripted console started by the test (FakeConsole):
 * what it registers, what it answers to orders, and what it sends through the connector API.
 */
import { decodeConnectorText } from '@synchro/config-xml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectorStamp } from '../src/connector-time.ts';
import { encodeOrder } from '../src/order-codec.ts';
import { startAutomateSim, type AutomateSimOptions, type RunningAutomateSim } from '../src/sim.ts';
import { childText, parseXml } from '../src/xml-tree.ts';
import { FakeConsole, waitFor } from './fake-console.ts';
import {
  FIXTURE_CONFIG,
  FIXTURE_DEVICE_IDS,
  order,
  queuedRecord,
  sendOrder,
  sendSyncOrder,
} from './helpers.ts';

const TOKEN = 'ctk_9f8e7d6c5b4a39281706f5e4d3c2b1a0';

let fake: FakeConsole;
let sims: RunningAutomateSim[] = [];
let logs: string[] = [];

beforeEach(async () => {
  fake = new FakeConsole(TOKEN, FIXTURE_CONFIG);
  await fake.start();
  logs = [];
});

afterEach(async () => {
  await Promise.all(sims.map((s) => s.stop()));
  sims = [];
  await fake.stop();
  // Every body the simulator sent was valid for the contract's schemas.
  expect(fake.invalid).toEqual([]);
  // And every answer it read was one the console's OpenAPI document allows.
  expect(fake.offContract).toEqual([]);
  // Whatever happened in the test, the token never reached a log line.
  expect(logs.length).toBeGreaterThan(0);
  expect(logs.filter((l) => l.includes(TOKEN))).toEqual([]);
});

async function startSim(overrides: Partial<AutomateSimOptions> = {}): Promise<RunningAutomateSim> {
  const sim = await startAutomateSim({
    server: fake.url,
    syncId: 'DEMOA001',
    token: TOKEN,
    host: '127.0.0.1',
    machineName: 'SRV-TEST',
    retry: { attempts: 3, baseDelayMs: 20, maxDelayMs: 100 },
    logSink: (line) => logs.push(line),
    verbose: true,
    seed: 1234,
    ...overrides,
  });
  sims.push(sim);
  return sim;
}

function answerOf(text: string) {
  const root = parseXml(text);
  return {
    retSync: childText(root, 'RetSync'),
    retInfo: root.children.find((c) => c.name === 'RetInfo')?.text ?? '',
  };
}

const requestsTo = (method: string, path: string) =>
  fake.requests.filter((r) => r.method === method && r.path.startsWith(`/api/connector/v1${path}`));

describe('registration', () => {
  it('registers at start and at every interval, with the bearer token', async () => {
    const sim = await startSim({ reportIntervalSeconds: 0.15 });
    expect(fake.registrations).toHaveLength(1);
    expect(fake.registrations[0]).toEqual({ port: sim.port, version: '6.11.23.9', machineName: 'SRV-TEST' });
    await waitFor(() => fake.registrations.length >= 3);
    expect(fake.requests.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(logs.some((l) => /register automate enregistré à 127\.0\.0\.1:\d+/.test(l))).toBe(true);
  });

  it('reports the address it is given', async () => {
    await startSim({ ip: '203.0.113.10', automateVersion: '7.0.1' });
    expect(fake.registrations[0]).toMatchObject({ ip: '203.0.113.10', version: '7.0.1' });
  });

  it('does not report when offline, and still answers orders', async () => {
    const sim = await startSim({ offline: true, reportIntervalSeconds: 0.05 });
    const answer = await sendSyncOrder(sim.port, { type: 'R' });
    expect(answerOf(answer.text).retSync).toBe('1');
    await sim.idle();
    expect(fake.registrations).toEqual([]);
    expect(fake.patches).toHaveLength(1);
  });

  it('logs a refused registration and tries again', async () => {
    fake.failNext('register', [403]);
    await startSim({ reportIntervalSeconds: 0.05 });
    expect(
      logs.some((l) =>
        l.includes('enregistrement refusé ou impossible : HTTP 403 : Échec prévu par le test.'),
      ),
    ).toBe(true);
    await waitFor(() => fake.registrations.length >= 1);
  });
});

describe('orders', () => {
  it('accepts a valid order with RetSync 1 and a French RetInfo, then plays the sync', async () => {
    const sim = await startSim({ artefactRate: 0 });
    const res = await sendSyncOrder(sim.port, { type: 'C' });
    expect(res.status).toBe(200);
    const answer = answerOf(res.text);
    expect(answer.retSync).toBe('1');
    expect(answer.retInfo).toMatch(/synchronisation complète .*SRV-TEST/i);
    await sim.idle();
    expect(fake.patches).toHaveLength(1);
  });

  it('leaves the cleaning artefacts in RetInfo when asked', async () => {
    const sim = await startSim({ artefactRate: 1, refuse: undefined });
    const answer = answerOf((await sendSyncOrder(sim.port, { type: 'I' })).text);
    expect(answer.retInfo).toContain('/n');
    expect(answer.retInfo).toContain('&apos;');
    expect(answer.retInfo).toMatch(/Ã©|Ã¨/);
    expect(decodeConnectorText(answer.retInfo.replaceAll('&apos;', "'"))).toMatch(/import des saisies/i);
  });

  it('refuses a malformed order or one for another installation with RetSync 0 and a reason, and plays nothing', async () => {
    const sim = await startSim();
    const other = answerOf((await sendSyncOrder(sim.port, { syncId: 'AUTRE42' })).text);
    expect(other.retSync).toBe('0');
    expect(decodeConnectorText(other.retInfo.replaceAll('&apos;', "'"))).toContain(
      '« AUTRE42 » ne correspond pas',
    );
    const garbage = answerOf((await sendOrder(sim.port, Buffer.from('<Automate>').toString('base64'))).text);
    expect(garbage.retSync).toBe('0');
    await sim.idle();
    expect(fake.patches).toEqual([]);
    expect(requestsTo('GET', '/configuration')).toEqual([]);
  });

  it('answers 404 to anything that is not an order', async () => {
    const sim = await startSim();
    const base = `http://127.0.0.1:${sim.port}`;
    expect((await fetch(`${base}/favicon.ico`)).status).toBe(404);
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/${encodeOrder(order())}`, { method: 'POST' })).status).toBe(404);
    expect(fake.patches).toEqual([]);
  });

  it('refuses every order with the --refuse message', async () => {
    const sim = await startSim({ refuse: "Service en maintenance jusqu'à 14 h" });
    const answer = answerOf((await sendSyncOrder(sim.port)).text);
    expect(answer).toEqual({ retSync: '0', retInfo: "Service en maintenance jusqu'à 14 h" });
    await sim.idle();
    expect(fake.requests.every((r) => r.path === '/api/connector/v1/automate')).toBe(true);
  });

  it('refuses a replayed order and an order while a sync runs', async () => {
    fake.failNext('config-get', [503, 503]); // slows the first sync down (two retries)
    const sim = await startSim({
      artefactRate: 0,
      retry: { attempts: 3, baseDelayMs: 150, maxDelayMs: 300 },
    });
    const first = order({ type: 'C' });
    expect(answerOf((await sendOrder(sim.port, encodeOrder(first))).text).retSync).toBe('1');
    const busy = answerOf((await sendSyncOrder(sim.port, { type: 'R' })).text);
    expect(busy).toMatchObject({ retSync: '0', retInfo: expect.stringContaining('déjà en cours') });
    await sim.idle();
    expect(answerOf((await sendOrder(sim.port, encodeOrder(first))).text)).toMatchObject({
      retSync: '0',
      retInfo: expect.stringContaining('déjà été reçue'),
    });
    expect(answerOf((await sendSyncOrder(sim.port, { type: 'R' })).text).retSync).toBe('1');
    await sim.idle();
    expect(fake.patches).toHaveLength(2);
  });

  it('waits --latency before answering', async () => {
    const sim = await startSim({ latencyMs: 400 });
    const started = Date.now();
    expect(answerOf((await sendSyncOrder(sim.port)).text).retSync).toBe('1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
  });

  it('never answers with --hang, and still stops at once', async () => {
    const sim = await startSim({ hang: true });
    await expect(
      fetch(`http://127.0.0.1:${sim.port}/${encodeOrder(order())}`, { signal: AbortSignal.timeout(500) }),
    ).rejects.toThrow();
    const pending = fetch(`http://127.0.0.1:${sim.port}/${encodeOrder(order())}`).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await sim.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error); // the connection was closed, never answered
    expect(fake.patches).toEqual([]);
  });
});

describe('the sync played through the connector API', () => {
  it('writes Info, DerSynchro and the source statuses, in the zone of the configuration', async () => {
    fake.configXml = FIXTURE_CONFIG.replace(
      '<FuseauHoraire>Europe/Paris</FuseauHoraire>',
      '<FuseauHoraire>America/New_York</FuseauHoraire>',
    );
    const sim = await startSim();
    await sendSyncOrder(sim.port, { type: 'C' });
    await sim.idle();
    const at = Date.now();
    expect(fake.patches).toHaveLength(1);
    const patch = fake.patches[0] as {
      Info: Record<string, string>;
      DerSynchro: Record<string, string>;
      Sources: unknown[];
    };
    expect(patch.Info).toEqual({
      VersionConnecteur: '6.19.4',
      NuxiAutomateInstall: '1',
      NuxiAutomateLibelle: 'Version : 6.11.23.9',
      DateMAJConfig: expect.stringMatching(/^\d{17}$/),
    });
    const { DerSynchro } = patch;
    expect(DerSynchro.TypeDeSync).toBe('ComplÃ¨te');
    // New York wall clock, within the few seconds of the test.
    const expected = connectorStamp(at, 'America/New_York');
    expect(DerSynchro.DateHeure?.slice(0, 10)).toBe(expected.slice(0, 10));
    expect(
      Math.abs(Number(DerSynchro.DateHeure?.slice(10, 12)) - Number(expected.slice(10, 12))),
    ).toBeLessThanOrEqual(1);
    expect(DerSynchro.Duree).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    expect(DerSynchro.Taille).toMatch(/^\d+,\d{3} Mo$/);
    expect(Number(DerSynchro.NbEnreg)).toBeGreaterThanOrEqual(900);
    expect(['0', '1']).toContain(DerSynchro.DureeAlerte);
    expect(['0', '1']).toContain(DerSynchro.TailleAlerte);
    expect(patch.Sources).toEqual([
      {
        index: 1,
        Status: expect.stringMatching(/^[01]$/),
        StatusLibelle: expect.stringMatching(/^ (Ok|Erreur) : /),
      },
    ]);
    // The order of the steps: configuration first, the last sync written last.
    const steps = fake.requests
      .filter((r) => r.path !== '/api/connector/v1/automate')
      .map((r) => `${r.method} ${r.path.split('?')[0]}`);
    expect(steps[0]).toBe('GET /api/connector/v1/configuration');
    expect(steps[steps.length - 1]).toBe('PATCH /api/connector/v1/configuration');
  });

  it('writes Exe and Serial only when the configuration has none', async () => {
    fake.configXml = FIXTURE_CONFIG.replace(/<Exe>[^<]*<\/Exe>/, '<Exe/>').replace(
      /<Serial>[^<]*<\/Serial>/,
      '<Serial></Serial>',
    );
    const sim = await startSim();
    await sendSyncOrder(sim.port);
    await sim.idle();
    const info = (fake.patches[0] as { Info: Record<string, string> }).Info;
    expect(info.Exe).toMatch(/^C:\\.+\.exe$/);
    expect(info.Serial).toMatch(/^SIM-[0-9A-F]{4}-[0-9A-F]{4}$/);
  });

  it('posts transactions for the declared terminals only, with unique IDs', async () => {
    const sim = await startSim();
    await sendSyncOrder(sim.port, { type: 'R' });
    await sim.idle();
    const tx = fake.transactionBatches.flat();
    expect(tx.length).toBeGreaterThanOrEqual(8);
    expect(tx.every((t) => FIXTURE_DEVICE_IDS.has(t.IDTablette))).toBe(true);
    expect(new Set(tx.map((t) => t.ID)).size).toBe(tx.length);
    expect(fake.recordBatches).toEqual([]); // no import records outside an import sync
  });

  it('posts the records and transactions of an import sync in batches within the contract limits', async () => {
    const sim = await startSim({ recordsPerSync: 1200, transactionsPerSync: 2500 });
    await sendSyncOrder(sim.port, { type: 'I' });
    await sim.idle();
    expect(fake.recordBatches.map((b) => b.length)).toEqual([500, 500, 200]);
    expect(fake.transactionBatches.map((b) => b.length)).toEqual([1000, 1000, 500]);
    const ids = fake.recordBatches.flat().map((r) => r.IDInterne);
    expect(new Set(ids).size).toBe(1200);
    expect(fake.records.size).toBe(1200);
    const types = new Set(fake.recordBatches.flat().map((r) => r.TypeEnreg));
    expect(types).toEqual(new Set(['DocumentDEVIS', 'Intervention', 'TiersCP', 'GED']));
    expect(
      (fake.patches[0] as { DerSynchro: { TypeDeSync: string; NbEnreg: string } }).DerSynchro,
    ).toMatchObject({
      TypeDeSync: 'Import des saisies',
    });
    expect(
      Number((fake.patches[0] as { DerSynchro: { NbEnreg: string } }).DerSynchro.NbEnreg),
    ).toBeGreaterThanOrEqual(1200);
  });

  it('imports the queued records at its next sync, and the records it left pending at the one after', async () => {
    fake.enqueue([
      queuedRecord({ IDInterne: 'NUXIDEVA0000000000000001' }),
      queuedRecord({
        IDInterne: 'NUXIINTA0000000000000002',
        TypeEnreg: 'Intervention',
        RefDoc: 'INT000042',
        NumLigne: 1,
      }),
      queuedRecord({ IDInterne: 'NUXI GED/3', TypeEnreg: 'GED', RefDoc: 'XX_1', NumLigne: 1 }),
    ]);
    const sim = await startSim({ recordsPerSync: 200 });
    await sendSyncOrder(sim.port, { type: 'I' });
    await sim.idle();
    expect([...fake.results.keys()].sort()).toEqual([
      'NUXI GED/3',
      'NUXIDEVA0000000000000001',
      'NUXIINTA0000000000000002',
    ]);
    for (const r of fake.results.values()) {
      expect([1, -1]).toContain(r.Etat);
      if (r.Etat === -1) expect(decodeConnectorText(r.Log ?? '')).toContain('Erreur');
    }
    // The records this sync left with Etat 0 wait in the queue for the next one.
    const pending = fake.queued().map((r) => r.IDInterne);
    expect(pending.length).toBeGreaterThan(0);
    await sendSyncOrder(sim.port, { type: 'R' });
    await sim.idle();
    expect(fake.queued()).toEqual([]);
    for (const id of pending) expect(fake.results.has(id)).toBe(true);
  });

  it('plays a failed sync with --fail-rate 1: alerts, a failed source, transactions in error', async () => {
    const sim = await startSim({ failRate: 1, transactionsPerSync: 100 });
    const answer = answerOf((await sendSyncOrder(sim.port, { type: 'C' })).text);
    expect(answer.retSync).toBe('1');
    await sim.idle();
    const patch = fake.patches[0] as {
      DerSynchro: Record<string, string>;
      Sources: { Status: string; StatusLibelle: string }[];
    };
    expect(patch.DerSynchro.DureeAlerte).toBe('1');
    expect(patch.Sources[0]?.Status).toBe('0');
    expect(decodeConnectorText(patch.Sources[0]?.StatusLibelle ?? '')).toMatch(/^ Erreur : /);
    const tx = fake.transactionBatches.flat();
    expect(tx.filter((t) => t.Err === 1).length).toBeGreaterThan(60);
    expect(logs.some((l) => l.includes('jouée en échec'))).toBe(true);
  });

  it('reads the configuration with If-None-Match and uses its copy on 304', async () => {
    fake.failNext('config-patch', [400]); // not retried: the version stays, the next read is a 304
    const sim = await startSim();
    await sendSyncOrder(sim.port, { type: 'C' });
    await sim.idle();
    expect(requestsTo('PATCH', '/configuration')).toHaveLength(1);
    expect(logs.some((l) => l.includes('dernière synchronisation non écrite : HTTP 400'))).toBe(true);
    await sendSyncOrder(sim.port, { type: 'C' });
    await sim.idle();
    const reads = requestsTo('GET', '/configuration');
    expect(reads.map((r) => r.ifNoneMatch)).toEqual([undefined, '"7"']);
    expect(logs.some((l) => l.includes('(inchangée, 304)'))).toBe(true);
    // The cached configuration still drives the sync: its source and terminals.
    expect((fake.patches[0] as { Sources: unknown[] }).Sources).toHaveLength(1);
    expect(fake.transactionBatches.flat().every((t) => FIXTURE_DEVICE_IDS.has(t.IDTablette))).toBe(true);
  });

  it('retries a failed call with backoff, then logs and goes on', async () => {
    fake.failNext('transactions', [503, 502]);
    fake.failNext('records', [500, 500, 500]);
    const sim = await startSim({ recordsPerSync: 10 });
    await sendSyncOrder(sim.port, { type: 'I' });
    await sim.idle();
    expect(requestsTo('POST', '/transactions')).toHaveLength(3); // two failures, then success
    expect(fake.transactionBatches).toHaveLength(1);
    expect(requestsTo('POST', '/import-records')).toHaveLength(3); // attempts spent
    expect(fake.recordBatches).toEqual([]);
    expect(
      logs.some((l) => /api-retry POST \/transactions : HTTP 503 .* nouvel essai 1 dans \d+ ms/.test(l)),
    ).toBe(true);
    expect(logs.some((l) => l.includes('enregistrements : lot de 10 non envoyé'))).toBe(true);
    expect(fake.patches).toHaveLength(1); // the sync went on to the end
  });

  it('does not retry a refused token, and says so without the token', async () => {
    const sim = await startSim({ token: 'ctk_wrong_token_value_0000', reportIntervalSeconds: 60 });
    await sendSyncOrder(sim.port, { type: 'C' });
    await sim.idle();
    expect(requestsTo('PATCH', '/configuration')).toHaveLength(1);
    expect(logs.some((l) => l.includes('HTTP 401 : Jeton du connecteur absent ou invalide.'))).toBe(true);
    expect(logs.filter((l) => l.includes('ctk_wrong_token_value_0000'))).toEqual([]);
  });

  it('gives new unique ids at every sync', async () => {
    const sim = await startSim({ recordsPerSync: 50 });
    await sendSyncOrder(sim.port, { type: 'I' });
    await sim.idle();
    await sendSyncOrder(sim.port, { type: 'I' });
    await sim.idle();
    const ids = fake.recordBatches.flat().map((r) => r.IDInterne);
    expect(ids).toHaveLength(100);
    expect(new Set(ids).size).toBe(100);
    const tx = fake.transactionBatches.flat().map((t) => t.ID);
    expect(new Set(tx).size).toBe(tx.length);
  });
});
