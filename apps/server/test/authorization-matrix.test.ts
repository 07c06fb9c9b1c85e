import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/types.ts';
import {
  rotateConnectorToken,
  setClientId,
  setExpiry,
  suspendInstallation,
} from '../src/domain/installation-admin.ts';
import { enqueueMail } from '../src/domain/mail-outbox.ts';
import { seal, sealKey } from '../src/security/token-box.ts';
import { createSession } from '../src/domain/sessions.ts';
import { addInstallation, FIXTURE_CONFIG, signIn, TEST_SESSION_SECRET, testApp } from './helpers/app.ts';
import { openTestDb } from './helpers/db.ts';
import { capture } from './helpers/secret-capture.ts';
import { insertRecords, insertTransactions } from './helpers/history.ts';
import {
  isConnectorRoute,
  ROUTE_SAMPLES,
  routeKey,
  routesOfTheApp,
  sampleOf,
  snapshotAll,
  withId,
  type AppRoute,
  type SampleContext,
} from './helpers/route-catalog.ts';

/**
 * Who may call what, for EVERY route of the app (the list is read from the app: a new route
 * without an entry in ROUTE_SAMPLES fails the first test): console routes without a session,
 * with another installation's session, with unknown and malformed ids; connector routes without
 * a token, with a wrong, a replaced and another installation's token. Each refusal changes no
 * stored row (digests of every table, per installation, before and after).
 */

const ROUTES = await routesOfTheApp();
const CONSOLE = ROUTES.filter((r) => !isConnectorRoute(r));
const PROTECTED = CONSOLE.filter((r) => ROUTE_SAMPLES[routeKey(r)]?.kind !== 'public');
const isOAuthReturn = (r: (typeof CONSOLE)[number]) => ROUTE_SAMPLES[routeKey(r)]?.kind === 'oauth-return';
const BY_ID = CONSOLE.filter((r) =>
  ['record', 'transaction', 'mail'].includes(ROUTE_SAMPLES[routeKey(r)]?.kind ?? ''),
);
const OWN = CONSOLE.filter((r) => ROUTE_SAMPLES[routeKey(r)]?.kind === 'own');
const CONNECTOR = ROUTES.filter(isConnectorRoute);

/** Texts found only in B's data (its configuration, records, transactions, file, log). */
const B_MARK = 'BETAONLY';
/** Texts found only in A's data. */
const A_MARK = 'ALPHAONLY';

const UNAUTHORIZED = 'Vous devez être connecté pour accéder à cette ressource.';

let db: Db;
let app: FastifyInstance;
const a = { id: '', cookie: '', token: '', mailId: '' };
const b = { id: '', cookie: '', token: '', mailId: '' };

/** The id of the row a route of one row names, for installation A (`own`) or B. */
function rowId(route: AppRoute, who: 'A' | 'B'): string {
  const kind = sampleOf(route).kind;
  if (kind === 'mail') return who === 'A' ? a.mailId : b.mailId;
  return `${who === 'A' ? A_MARK : B_MARK}-${kind === 'transaction' ? 'T1' : 'R1'}`;
}

async function seed(syncId: string, mark: string) {
  const configText = FIXTURE_CONFIG.replace(
    '<Serveur>localhost\\ebp</Serveur>',
    `<Serveur>${mark}-SRV</Serveur>`,
  );
  if (configText === FIXTURE_CONFIG) throw new Error('fixture changed: no <Serveur> to mark');
  const { installation, connectorToken } = await addInstallation(db, { syncId, configText });
  await insertRecords(db, installation.id, [
    {
      IDInterne: `${mark}-R1`,
      DateHeure: '2025-01-01T10:00:00Z',
      RefDoc: `${mark}-REF`,
      Etat: 0,
      Log: `${mark} log`,
      file: { name: `${mark}.pdf`, content: Buffer.from(`%PDF ${mark}`) },
    },
    { IDInterne: `${mark}-R2`, DateHeure: '2025-01-02T10:00:00Z', RefDoc: `${mark}-REF2`, Etat: -1 },
  ]);
  await insertTransactions(db, installation.id, [
    { ID: `${mark}-T1`, DateHeureTrt: '2025-01-01T10:00:00Z', RefDoc: `${mark}-TREF`, Log: `${mark} trace` },
  ]);
  const mailId = await db.transaction((tx) =>
    enqueueMail(tx, {
      installationId: installation.id,
      mail: {
        kind: 'order-refused',
        facts: {
          syncId,
          zone: 'Europe/Paris',
          type: 'C',
          outcome: 'refused',
          retInfo: mark,
          at: '2025-01-01T10:00:00Z',
        },
      },
      recipients: [`${mark.toLowerCase()}@exemple.fr`],
      dueAt: new Date('2025-01-01T10:00:00Z'),
      now: new Date('2025-01-01T10:00:00Z'),
    }),
  );
  // A drive link whose access token is still valid: the connector's route gives it without asking a provider.
  const key = sealKey(TEST_SESSION_SECRET, 'drive-tokens');
  await db.query(
    `INSERT INTO drive_links (installation_id, provider, account, refresh_token, access_token, access_expires_at, connected_at)
     VALUES ($1, 'google', $2, $3, $4, '2099-01-01T00:00:00Z', now())`,
    [
      installation.id,
      `${mark.toLowerCase()}@exemple.fr`,
      seal(key, `${mark}-REFRESH`),
      seal(key, `${mark}-ACCESS`),
    ],
  );
  return { id: installation.id, token: connectorToken, cookie: await signIn(app, syncId), mailId };
}

beforeAll(async () => {
  db = await openTestDb();
  app = await testApp(db);
  // B first: its outbox email is row 1, an id the malformed list tries on A's behalf.
  Object.assign(b, await seed('MATB01', B_MARK));
  Object.assign(a, await seed('MATA01', A_MARK));
});
afterAll(async () => {
  await app.close();
  await db.close();
});

const snapshot = () => snapshotAll(db, [a.id, b.id]);

function contextOf(cookie: string): SampleContext {
  return {
    async view(path) {
      const res = await app.inject({ url: path, headers: { cookie } });
      if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
      return res.json<{ data: Record<string, unknown> }>().data;
    },
  };
}

/** A request to a route with its sample body and query, `url` replacing the route's path when given. */
async function call(
  route: AppRoute,
  headers: Record<string, string>,
  options: { url?: string; bodyFor?: string } = {},
): Promise<LightMyRequestResponse> {
  const sample = sampleOf(route);
  const body = sample.body ? await sample.body(contextOf(options.bodyFor ?? a.cookie)) : undefined;
  return app.inject({
    method: route.method as InjectOptions['method'],
    url: (options.url ?? sample.url ?? route.url) + (sample.query ?? ''),
    headers,
    ...(body !== undefined ? { payload: body as object } : {}),
  });
}

const name = (r: AppRoute) => `${r.method} ${r.url}`;

describe('the route list', () => {
  it('is read from the app, and every route has an entry (and every entry a route)', () => {
    expect(ROUTES.length).toBeGreaterThanOrEqual(40);
    expect(ROUTES).toContainEqual({ method: 'GET', url: '/api/config/terminals' });
    expect(ROUTES).toContainEqual({ method: 'PUT', url: '/api/sync-history/:id/xml' });
    expect(ROUTES).toContainEqual({
      method: 'POST',
      url: '/api/connector/v1/import-records/:IDInterne/result',
    });
    const keys = ROUTES.map(routeKey);
    expect(
      keys.filter((k) => !ROUTE_SAMPLES[k]),
      'routes without an entry in ROUTE_SAMPLES',
    ).toEqual([]);
    expect(
      Object.keys(ROUTE_SAMPLES).filter((k) => !keys.includes(k)),
      'entries of ROUTE_SAMPLES that are no route',
    ).toEqual([]);
    for (const r of ROUTES)
      expect(app.hasRoute({ method: r.method as 'GET', url: r.url }), name(r)).toBe(true);
  });
});

describe('console routes without a valid session', () => {
  it.each(PROTECTED.map((r) => [name(r), r] as const))(
    '%s: 401 in French without a cookie, with a forged one and with a logged-out one; nothing changed',
    async (_n, route) => {
      const loggedOut = await signIn(app, 'MATA01');
      expect(
        (await app.inject({ method: 'POST', url: '/api/logout', headers: { cookie: loggedOut } })).statusCode,
      ).toBe(200);
      const before = await snapshot();
      const url = withId(route.url, rowId(route, 'A'));
      for (const cookie of [null, 'synchro_session=forged', `synchro_session=${'A'.repeat(43)}`, loggedOut]) {
        const res = await call(route, cookie ? { cookie } : {}, { url });
        if (isOAuthReturn(route)) {
          expect(res.statusCode, `${cookie}: ${res.body}`).toBe(302);
          expect(res.headers.location).toBe('/complement?drive=expired');
          continue;
        }
        expect(res.statusCode, `${cookie}: ${res.body}`).toBe(401);
        const body = res.json<{ message: string; code: string }>();
        expect(body.code).toBe('UNAUTHORIZED');
        expect(body.message).toMatch(
          cookie
            ? /^(Session expirée ou invalide|Vous devez être connecté)/
            : new RegExp(`^${UNAUTHORIZED}$`),
        );
        expect(res.body).not.toContain(A_MARK);
      }
      expect(await snapshot()).toEqual(before);
    },
  );
});

describe('console routes with a session the server has ended', () => {
  const ended: Record<'suspended' | 'clientId' | 'expired', { id: string; syncId: string }> = {
    suspended: { id: '', syncId: 'MATSUSP1' },
    clientId: { id: '', syncId: 'MATCID1' },
    expired: { id: '', syncId: 'MATEXP1' },
  };
  /** A session of the installation, made as the sign-in makes it (without its scrypt check). */
  const sessionOf = async (installationId: string) =>
    `synchro_session=${await createSession(db, { installationId, secret: TEST_SESSION_SECRET, address: '127.0.0.1', now: new Date() })}`;

  beforeAll(async () => {
    for (const e of Object.values(ended)) {
      const { installation } = await addInstallation(db, { syncId: e.syncId });
      e.id = installation.id;
      await insertRecords(db, e.id, [{ IDInterne: `${A_MARK}-R1`, DateHeure: '2025-01-01T10:00:00Z' }]);
      await insertTransactions(db, e.id, [{ ID: `${A_MARK}-T1`, DateHeureTrt: '2025-01-01T10:00:00Z' }]);
    }
    await suspendInstallation(db, ended.suspended.syncId);
    await setExpiry(db, ended.expired.syncId, new Date(Date.now() - 60_000));
  });

  it.each(PROTECTED.map((r) => [name(r), r] as const))(
    '%s: 401 once the installation is suspended, its client id replaced or its licence expired; nothing changed',
    async (_n, route) => {
      const cookies = {
        suspended: await sessionOf(ended.suspended.id),
        expired: await sessionOf(ended.expired.id),
        clientId: await sessionOf(ended.clientId.id),
      };
      await setClientId(db, ended.clientId.syncId, `Canary-replaced-${route.method}-${route.url.length}`);
      const ids = Object.values(ended).map((e) => e.id);
      const before = await snapshotAll(db, ids);
      const own = rowId(route, 'A');
      for (const [what, cookie] of Object.entries(cookies)) {
        const res = await call(route, { cookie }, { url: withId(route.url, own) });
        if (isOAuthReturn(route)) {
          expect(res.statusCode, `${what}: ${res.body}`).toBe(302);
          expect(res.headers.location).toBe('/complement?drive=expired');
          continue;
        }
        expect(res.statusCode, `${what}: ${res.body}`).toBe(401);
        expect(res.json<{ code: string }>().code).toBe('UNAUTHORIZED');
        expect(res.json<{ message: string }>().message).toMatch(/[a-zé]/);
      }
      const after = await snapshotAll(db, ids);
      // The client id change itself is audited before; the refusals write nothing.
      expect(after).toEqual(before);
    },
  );
});

/** Ids that are not one of the signed-in installation's rows, in the path as sent (not encoded again). */
const FOREIGN_OR_MALFORMED = (foreign: string) => [
  encodeURIComponent(foreign),
  'abc',
  '-1',
  '0',
  '1e3',
  '1',
  '..%2F1',
  '%2E%2E',
  '%00',
  `${encodeURIComponent(`${A_MARK}-R1`)}%00`,
  `${encodeURIComponent(`${A_MARK}-R1`)}%0A`,
  '%20',
  encodeURIComponent("' OR '1'='1"),
  encodeURIComponent('%'),
  'a'.repeat(300),
  '%C3%A9'.repeat(300),
];

/** Ids fastify's router itself refuses before any route: invalid percent-encoding, over 2 048 characters. */
const ROUTER_REFUSED = ['%E9t%E9', '%FF%FE', '%', '%zz', 'x'.repeat(3000)];

describe('console routes of one row, with another installation’s session or an id that is not one', () => {
  it.each(BY_ID.map((r) => [name(r), r] as const))(
    '%s: 404 in French for B’s id, unknown and malformed ids; nothing changed',
    async (_n, route) => {
      const before = await snapshot();
      for (const id of FOREIGN_OR_MALFORMED(rowId(route, 'B'))) {
        const url = route.url.replace(/:[A-Za-z]+/, id);
        const res = await call(route, { cookie: a.cookie }, { url });
        expect(res.statusCode, `${id.slice(0, 40)}: ${res.body.slice(0, 200)}`).toBe(404);
        expect(res.json<{ message: string }>().message).toMatch(/introuvable|Fichier non disponible/);
        expect(res.body).not.toContain(B_MARK);
      }
      // The raw dot segment: whatever the router makes of it, nobody's row.
      const dots = await call(route, { cookie: a.cookie }, { url: route.url.replace(/:[A-Za-z]+/, '../1') });
      expect(dots.statusCode).toBe(404);
      expect(await snapshot()).toEqual(before);
    },
  );

  it.each(BY_ID.map((r) => [name(r), r] as const))(
    '%s: ids the router refuses (bad percent-encoding, over 2 048 characters) are the same French 404',
    async (_n, route) => {
      const before = await snapshot();
      for (const id of ROUTER_REFUSED) {
        const res = await call(route, { cookie: a.cookie }, { url: route.url.replace(/:[A-Za-z]+/, id) });
        expect(res.statusCode, `${id.slice(0, 40)}: ${res.body.slice(0, 200)}`).toBe(404);
        expect(res.json<{ message: string }>().message).toMatch(/introuvable|Fichier non disponible/);
      }
      expect(await snapshot()).toEqual(before);
    },
  );

  it.each(BY_ID.map((r) => [name(r), r] as const))(
    '%s: A reaches its own row (the control)',
    async (_n, route) => {
      const res = await call(route, { cookie: a.cookie }, { url: withId(route.url, rowId(route, 'A')) });
      expect(res.statusCode, res.body).toBe(200);
    },
  );
});

describe('console routes of the signed-in installation', () => {
  it.each(OWN.map((r) => [name(r), r] as const))(
    '%s with A’s session: A’s data only, B unchanged',
    async (_n, route) => {
      const before = await snapshot();
      const res = await call(route, { cookie: a.cookie });
      expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500);
      expect(res.statusCode, res.body.slice(0, 300)).not.toBe(401);
      expect(res.body).not.toContain(B_MARK);
      expect(JSON.stringify(res.headers)).not.toContain(B_MARK);
      const after = await snapshot();
      expect(after[b.id]).toEqual(before[b.id]);
    },
  );

  it('the lists give A’s rows, all of them, and none of B’s', async () => {
    const history = await app.inject({ url: '/api/sync-history', headers: { cookie: a.cookie } });
    expect(
      history
        .json<{ data: { IDInterne: string }[] }>()
        .data.map((r) => r.IDInterne)
        .sort(),
    ).toEqual([`${A_MARK}-R1`, `${A_MARK}-R2`]);
    const trace = await app.inject({ url: '/api/transaction-logs', headers: { cookie: a.cookie } });
    expect(trace.json<{ logs: { ID: string }[] }>().logs.map((r) => r.ID)).toEqual([`${A_MARK}-T1`]);
    const csv = await app.inject({ url: '/api/exports/sync-history.csv', headers: { cookie: a.cookie } });
    expect(csv.body).toContain(`${A_MARK}-R1`);
    expect(csv.body).not.toContain(B_MARK);
    const sources = await app.inject({ url: '/api/config/sources', headers: { cookie: a.cookie } });
    expect(sources.body).toContain(`${A_MARK}-SRV`);
  });
});

describe('connector routes', () => {
  const connectorUrl = (route: AppRoute) => withId(route.url, `${A_MARK}-R1`);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it.each(CONNECTOR.map((r) => [name(r), r] as const))(
    '%s: 401 without a token, with a wrong one and with a replaced one; nothing changed',
    async (_n, route) => {
      const replaced = a.token;
      a.token = await rotateConnectorToken(db, 'MATA01');
      capture.register(a.token, 'connector-token');
      const before = await snapshot();
      const attempts: [Record<string, string>, RegExp][] = [
        [{}, /^Jeton du connecteur manquant/],
        [bearer('x'.repeat(43)), /^Jeton du connecteur refusé/],
        [bearer(replaced), /^Jeton du connecteur refusé/],
        [
          { authorization: `Basic ${Buffer.from(`MATA01:${a.token}`).toString('base64')}` },
          /^En-tête Authorization invalide/,
        ],
        [{ cookie: a.cookie }, /^Jeton du connecteur manquant/],
      ];
      for (const [headers, message] of attempts) {
        const res = await call(route, headers, { url: connectorUrl(route) });
        expect(res.statusCode, res.body).toBe(401);
        const body = res.json<{ error: string; message: string }>();
        expect(Object.keys(body).sort()).toEqual(['error', 'message']);
        expect(body.error).toBe('unauthorized');
        expect(body.message).toMatch(message);
      }
      expect(await snapshot()).toEqual(before);
    },
  );

  const refused = { suspended: { id: '', token: '' }, expired: { id: '', token: '' } };
  beforeAll(async () => {
    for (const [what, syncId] of [
      ['suspended', 'MATCSUS1'],
      ['expired', 'MATCEXP1'],
    ] as const) {
      const { installation, connectorToken } = await addInstallation(db, { syncId });
      refused[what] = { id: installation.id, token: connectorToken };
      await insertRecords(db, installation.id, [
        { IDInterne: `${A_MARK}-R1`, DateHeure: '2025-01-01T10:00:00Z', Etat: 0 },
      ]);
    }
    await suspendInstallation(db, 'MATCSUS1');
    await setExpiry(db, 'MATCEXP1', new Date(Date.now() - 60_000));
  });

  it.each(CONNECTOR.map((r) => [name(r), r] as const))(
    '%s: 403 in French with the token of a suspended or an expired installation; nothing changed',
    async (_n, route) => {
      const ids = [refused.suspended.id, refused.expired.id];
      const before = await snapshotAll(db, ids);
      for (const [what, message] of [
        ['suspended', /^Cette installation est suspendue/],
        ['expired', /^La licence de cette installation a expiré/],
      ] as const) {
        const res = await call(route, bearer(refused[what].token), { url: connectorUrl(route) });
        expect(res.statusCode, `${what}: ${res.body}`).toBe(403);
        expect(res.json()).toEqual({ error: 'forbidden', message: expect.stringMatching(message) });
      }
      expect(await snapshotAll(db, ids)).toEqual(before);
    },
  );

  it('a record id the router refuses is a 404 in the connector’s error shape', async () => {
    for (const id of ROUTER_REFUSED) {
      const res = await app.inject({
        method: 'POST',
        url: `/api/connector/v1/import-records/${id}/result`,
        headers: bearer(a.token),
        payload: { Etat: 1 },
      });
      expect(res.statusCode, `${id.slice(0, 40)}: ${res.body.slice(0, 200)}`).toBe(404);
      expect(Object.keys(res.json<object>()).sort()).toEqual(['error', 'message']);
    }
  });

  it.each(CONNECTOR.map((r) => [name(r), r] as const))(
    '%s with B’s token: B’s data only, A unchanged',
    async (_n, route) => {
      const before = await snapshot();
      const res = await call(route, bearer(b.token), { url: connectorUrl(route) });
      if (sampleOf(route).kind === 'connector-record') {
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json()).toEqual({
          error: 'not-found',
          message: `Aucun enregistrement d’import « ${A_MARK}-R1 » pour cette installation.`,
        });
      } else {
        expect(res.body).not.toContain(A_MARK);
        expect(res.statusCode, res.body).toBe(200);
      }
      expect((await snapshot())[a.id]).toEqual(before[a.id]);
    },
  );
});
