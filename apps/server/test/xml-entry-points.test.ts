import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/types.ts';
import { addInstallation, FIXTURE_CONFIG, signIn, testApp } from './helpers/app.ts';
import { CONNECTOR, expectConnectorError, importRecord } from './helpers/connector.ts';
import { openTestDb } from './helpers/db.ts';
import { sharedOffloadPool } from '../src/offload/pool.ts';
import { insertRecords, SIMPLE_ENREG } from './helpers/history.ts';
import { dataSnapshot } from './helpers/route-catalog.ts';
import { getConfiguration } from '../src/domain/configurations.ts';

/**
 * Every route that takes XML from outside (the record editor's PUT, the connector's Data patch
 * and its records' Enreg) against hostile documents: external entities, entity expansion, a
 * 100 000-level document, invalid UTF-8, oversized. Each is refused in French in the route's
 * error shape, writes nothing, and is answered within a second (the issue's promise; measured
 * with the request, PGlite included). A stored configuration carrying the same documents is
 * read by every configuration route without expanding anything.
 */

/** The promise of a refusal: under a second (a few milliseconds on a quiet machine). */
const REFUSAL_BOUND_MS = 1_000;
/**
 * Within the route's body limit, 51 MB of JSON are read and parsed before the XML is judged: about
 * a second on a quiet machine, several on a loaded CI machine (2 shared cores). The bound still
 * fails a document that would be expanded or stored.
 */
const BIG_BODY_BOUND_MS = 10_000;

/** A hostile document whose root is `root`, as text or as the raw bytes of its JSON string. */
interface Attack {
  name: string;
  xml: (root: string) => string;
  /** Bytes put inside the JSON string in place of `@@` (not valid UTF-8). */
  rawBytes?: Buffer;
}

const lol = (root: string) => {
  const entities = ['<!ENTITY l0 "lol">'];
  for (let i = 1; i <= 9; i++) entities.push(`<!ENTITY l${i} "${`&l${i - 1};`.repeat(10)}">`);
  return `<?xml version="1.0"?><!DOCTYPE ${root} [${entities.join('')}]><${root}>&l9;</${root}>`;
};

const ATTACKS: Attack[] = [
  {
    name: 'an external entity (file)',
    xml: (r) => `<!DOCTYPE ${r} [<!ENTITY x SYSTEM "file:///etc/passwd">]><${r}>&x;</${r}>`,
  },
  {
    name: 'an external parameter entity (network)',
    xml: (r) => `<!DOCTYPE ${r} [<!ENTITY % p SYSTEM "http://127.0.0.1:9/evil.dtd"> %p;]><${r}/>`,
  },
  {
    name: 'a public external DTD',
    xml: (r) => `<!DOCTYPE ${r} PUBLIC "-//X//Y" "http://127.0.0.1:9/x.dtd"><${r}/>`,
  },
  { name: 'billion laughs', xml: lol },
  {
    name: 'quadratic blow-up',
    xml: (r) => `<!DOCTYPE ${r} [<!ENTITY a "${'x'.repeat(50_000)}">]><${r}>${'&a;'.repeat(50_000)}</${r}>`,
  },
  { name: 'an undeclared entity', xml: (r) => `<${r}>&lol9;</${r}>` },
  {
    name: '100 000 levels',
    xml: (r) => `<${r}>${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</${r}>`,
  },
  {
    name: '100 000 unclosed levels',
    xml: (r) => `<${r}>${'<a>'.repeat(100_000)}`,
  },
  {
    name: 'invalid UTF-8',
    xml: (r) => `<${r}>@@</${r}>`,
    rawBytes: Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80]),
  },
  { name: 'a lone surrogate', xml: (r) => `<${r}>\ud800</${r}>` },
  { name: 'a control character', xml: (r) => `<${r}>\u0001</${r}>` },
];

let db: Db;
let app: FastifyInstance;
let inst: { id: string; token: string; cookie: string };

beforeAll(async () => {
  db = await openTestDb();
  app = await testApp(db);
  // A big body is read in a worker thread: started once for the process, not at the first attack.
  await sharedOffloadPool().warm();
  const { installation, connectorToken } = await addInstallation(db, { syncId: 'XMLIN01' });
  await insertRecords(db, installation.id, [{ IDInterne: 'XR1', DateHeure: '2025-01-01T10:00:00Z' }]);
  inst = { id: installation.id, token: connectorToken, cookie: await signIn(app, 'XMLIN01') };
});
afterAll(async () => {
  await app.close();
  await db.close();
});

/** A JSON body: `build` gets a placeholder for the XML; the XML goes in JSON-escaped (or raw bytes). */
function jsonBody(build: (placeholder: string) => unknown, attack: Attack, root: string): Buffer {
  const marker = '@@XML@@';
  const [before, after] = JSON.stringify(build(marker)).split(marker) as [string, string];
  const xmlJson = JSON.stringify(attack.xml(root)).slice(1, -1);
  if (!attack.rawBytes) return Buffer.from(before + xmlJson + after);
  const [x1, x2] = xmlJson.split('@@') as [string, string];
  return Buffer.concat([Buffer.from(before + x1), attack.rawBytes, Buffer.from(x2 + after)]);
}

interface EntryPoint {
  name: string;
  root: string;
  send: (body: Buffer, headers?: Record<string, string>) => Promise<LightMyRequestResponse>;
  build: (placeholder: string) => unknown;
  expectRefusal: (res: LightMyRequestResponse) => void;
}

const ENTRY_POINTS: EntryPoint[] = [
  {
    name: 'PUT /api/sync-history/:id/xml',
    root: 'SyncNuxiDev',
    build: (xml) => ({ xml }),
    send: (payload, extra = {}) =>
      app.inject({
        method: 'PUT',
        url: '/api/sync-history/XR1/xml',
        headers: { cookie: inst.cookie, 'content-type': 'application/json', ...extra },
        payload,
      }),
    expectRefusal: (res) => {
      expect([400, 413], res.body.slice(0, 300)).toContain(res.statusCode);
      const body = res.json<{ message: string; error: string }>();
      expect(body.message).toMatch(
        /^Le (XML de l'enregistrement est invalide|fichier XML est trop volumineux|corps de la requête n'est pas un texte UTF-8 valide)/,
      );
      expect(body.error).toBe(body.message);
    },
  },
  {
    name: 'PATCH /api/connector/v1/configuration (Data)',
    root: 'Data',
    build: (xml) => ({ Data: xml }),
    send: (payload, extra = {}) =>
      app.inject({
        method: 'PATCH',
        url: `${CONNECTOR}/configuration`,
        headers: { authorization: `Bearer ${inst.token}`, 'content-type': 'application/json', ...extra },
        payload,
      }),
    expectRefusal: (res) => {
      const code = res.statusCode === 413 ? 'payload-too-large' : 'invalid-request';
      expect(expectConnectorError(res, res.statusCode === 413 ? 413 : 400, code)).toMatch(
        /^(Requête invalide\u00a0: Data\u00a0: |Le )/,
      );
    },
  },
  {
    name: 'POST /api/connector/v1/import-records (Enreg)',
    root: 'SyncNuxiDev',
    build: (xml) => ({ records: [importRecord({ IDInterne: 'XMLATTACK', Enreg: xml })] }),
    send: (payload, extra = {}) =>
      app.inject({
        method: 'POST',
        url: `${CONNECTOR}/import-records`,
        headers: { authorization: `Bearer ${inst.token}`, 'content-type': 'application/json', ...extra },
        payload,
      }),
    expectRefusal: (res) => {
      expect(expectConnectorError(res, 400, 'invalid-request')).toMatch(
        /^(Requête invalide\u00a0: records\[0\]\.Enreg\u00a0: |Le fichier XML est trop volumineux|Le corps de la requête n'est pas un texte UTF-8 valide)/,
      );
    },
  },
];

describe.each(ENTRY_POINTS.map((e) => [e.name, e] as const))('%s', (_n, entry) => {
  it.each(ATTACKS.map((a) => [a.name, a] as const))(
    'refuses %s in French within a second, nothing written',
    async (_a, attack) => {
      const body = jsonBody(entry.build, attack, entry.root);
      const before = await dataSnapshot(db, inst.id);
      const started = performance.now();
      const res = await entry.send(body);
      const elapsed = performance.now() - started;
      entry.expectRefusal(res);
      expect(res.body).not.toMatch(/root:|lollollol/);
      expect(elapsed, `${Math.round(elapsed)} ms`).toBeLessThan(REFUSAL_BOUND_MS);
      expect(await dataSnapshot(db, inst.id)).toEqual(before);
    },
  );

  it('a body declared over the route’s limit: refused in French before it is read, within a second', async () => {
    const before = await dataSnapshot(db, inst.id);
    const started = performance.now();
    const res = await entry.send(Buffer.from('{}'), { 'content-length': String(200 * 1024 * 1024) });
    const elapsed = performance.now() - started;
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, res.body).toBeLessThan(500);
    expect(res.json<{ message: string }>().message).toMatch(/trop volumineux|dépasse la limite/);
    expect(elapsed, `${Math.round(elapsed)} ms`).toBeLessThan(REFUSAL_BOUND_MS);
    expect(await dataSnapshot(db, inst.id)).toEqual(before);
  });

  it('over 50 MB of XML within the route’s limit: refused in French, nothing written', async () => {
    const big: Attack = { name: 'big', xml: (r) => `<${r}>${'A'.repeat(51 * 1024 * 1024)}</${r}>` };
    const body = jsonBody(entry.build, big, entry.root);
    const before = await dataSnapshot(db, inst.id);
    const started = performance.now();
    const res = await entry.send(body);
    const elapsed = performance.now() - started;
    entry.expectRefusal(res);
    expect(res.json<{ message: string }>().message).toMatch(/volumineux|au plus 50/);
    expect(elapsed, `${Math.round(elapsed)} ms`).toBeLessThan(BIG_BODY_BOUND_MS);
    expect(await dataSnapshot(db, inst.id)).toEqual(before);
  });

  it('accepts a plain document (the control)', async () => {
    const plain: Attack = {
      name: 'plain',
      xml: (r) => (r === 'Data' ? '<Data><Salarie/></Data>' : SIMPLE_ENREG),
    };
    const res = await entry.send(jsonBody(entry.build, plain, entry.root));
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('a stored configuration carrying a hostile document', () => {
  const READERS = [
    '/api/user',
    '/api/dashboard',
    '/api/config/sources',
    '/api/config/terminals',
    '/api/plannings',
    '/api/debug/xml-status',
  ];

  it.each([
    ['billion laughs', lol('ConfigConnecteur') + FIXTURE_CONFIG.replace(/^\uFEFF?<\?xml[^>]*\?>/, '')],
    [
      'an external entity',
      FIXTURE_CONFIG.replace(
        /<ConfigConnecteur/,
        '<!DOCTYPE ConfigConnecteur [<!ENTITY x SYSTEM "file:///etc/passwd">]><ConfigConnecteur',
      ).replace('<Serveur>localhost\\ebp</Serveur>', '<Serveur>&x;</Serveur>'),
    ],
    [
      '100 000 levels',
      FIXTURE_CONFIG.replace(
        '</ConfigConnecteur>',
        `${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</ConfigConnecteur>`,
      ),
    ],
  ])('%s: every reader answers in French within a second, nothing expanded', async (_n, text) => {
    const syncId = `XMLST${Math.floor(Math.random() * 1e6)}`;
    const { installation, connectorToken } = await addInstallation(db, { syncId });
    await db.query(
      'UPDATE configurations SET text = $2, text_id = NULL, version = 2 WHERE installation_id = $1',
      [installation.id, text],
    );
    const cookie = await signIn(app, syncId);
    const calls: [string, () => Promise<LightMyRequestResponse>][] = [
      ...READERS.map(
        (url) =>
          [url, () => app.inject({ url, headers: { cookie } })] as [
            string,
            () => Promise<LightMyRequestResponse>,
          ],
      ),
      [
        'POST /api/debug/repair-xml',
        () => app.inject({ method: 'POST', url: '/api/debug/repair-xml', headers: { cookie } }),
      ],
      [
        'PATCH connector configuration',
        () =>
          app.inject({
            method: 'PATCH',
            url: `${CONNECTOR}/configuration`,
            headers: { authorization: `Bearer ${connectorToken}` },
            payload: { Info: { VersionConnecteur: '1' } },
          }),
      ],
    ];
    for (const [name, send] of calls) {
      const started = performance.now();
      const res = await send();
      const elapsed = performance.now() - started;
      expect(res.statusCode, `${name}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
      expect(res.body, name).not.toMatch(/root:x:|(lol){20}/);
      if (res.statusCode >= 400)
        expect(res.json<{ message: string }>().message, name).toMatch(/[éèàç]|Requête|La /);
      expect(elapsed, `${name}: ${Math.round(elapsed)} ms`).toBeLessThan(REFUSAL_BOUND_MS);
    }
    const row = await getConfiguration(db, installation.id);
    expect(row.text).not.toMatch(/root:x:|(lol){20}/);
  });
});
