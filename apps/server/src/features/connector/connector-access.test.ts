import { describe, expect, it } from 'vitest';
import { testApp, useTestApp } from '../../../test/helpers/app.ts';
import {
  connectorCall,
  connectorInstallation,
  expectConnectorError,
  importRecord,
} from '../../../test/helpers/connector.ts';
import { rotateConnectorToken, setExpiry, suspendInstallation } from '../../domain/installation-admin.ts';
import {
  EXPIRED_CONNECTOR_MESSAGE,
  MALFORMED_TOKEN_MESSAGE,
  MISSING_TOKEN_MESSAGE,
  SUSPENDED_CONNECTOR_MESSAGE,
  WRONG_TOKEN_MESSAGE,
} from './auth.ts';
import { readRecordValue } from '../../domain/record-values.ts';

/**
 * What every connector route shares: the bearer token (401/403), the error shape, no origin
 * check, JSON only, body limits (413), rate limits (429).
 */

let clock = new Date('2025-11-14T10:00:00Z');

const ctx = useTestApp({ now: () => clock, connectorRateLimits: { automate: 3, 'import-queue': 1000 } });

/** Every route, with a valid body. */
const ROUTES: { method: 'GET' | 'POST' | 'PATCH'; path: string; body?: unknown }[] = [
  {
    method: 'POST',
    path: '/automate',
    body: { port: 8085, version: '6.11.23.9', machineName: 'SRV', ip: '8.8.4.4' },
  },
  { method: 'GET', path: '/configuration' },
  { method: 'PATCH', path: '/configuration', body: { Info: { VersionConnecteur: '6.19.4' } } },
  { method: 'POST', path: '/import-records', body: { records: [] } },
  { method: 'GET', path: '/import-records/queue?limit=5' },
  { method: 'POST', path: '/import-records/NUXIDEV-X/result', body: { Etat: 1 } },
  { method: 'POST', path: '/transactions', body: { transactions: [] } },
];

const count = async (sql: string, params: unknown[]) =>
  (await ctx.db.query<{ n: number }>(sql, params))[0]?.n ?? -1;

describe('tokens', () => {
  it.each(ROUTES)(
    '$method $path: 401 without a token, with a malformed one and with a wrong one',
    async (r) => {
      const none = await connectorCall(ctx.app, r.method, r.path, null, r.body);
      expect(expectConnectorError(none, 401, 'unauthorized')).toBe(MISSING_TOKEN_MESSAGE);
      expect(none.headers['www-authenticate']).toBe('Bearer realm="synchro-connector"');

      for (const authorization of [
        'Basic dXNlcjpwYXNz',
        'Bearer',
        'Bearer a b',
        `Bearer ${'x'.repeat(600)}`,
        'Token abc',
      ]) {
        const res = await ctx.app.inject({
          method: r.method,
          url: `/api/connector/v1${r.path}`,
          headers: { authorization },
          ...(r.body !== undefined ? { payload: r.body as object } : {}),
        });
        expect(expectConnectorError(res, 401, 'unauthorized'), authorization).toBe(MALFORMED_TOKEN_MESSAGE);
        expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
      }

      const wrong = await connectorCall(ctx.app, r.method, r.path, 'x'.repeat(43), r.body);
      expect(expectConnectorError(wrong, 401, 'unauthorized')).toBe(WRONG_TOKEN_MESSAGE);
    },
  );

  it('a token names its own installation only: another installation sees none of its data', async () => {
    const a = await connectorInstallation(ctx.db, 'TOKA1');
    const b = await connectorInstallation(ctx.db, 'TOKB1');
    const rec = importRecord();
    expect(
      (await connectorCall(ctx.app, 'POST', '/import-records', a.token, { records: [rec] })).json(),
    ).toEqual({
      inserted: 1,
      duplicates: 0,
    });
    // B's queue is empty, B cannot post A's result, and the same id is a new record for B.
    expect((await connectorCall(ctx.app, 'GET', '/import-records/queue', b.token)).json()).toEqual({
      records: [],
    });
    const result = await connectorCall(
      ctx.app,
      'POST',
      `/import-records/${rec.IDInterne as string}/result`,
      b.token,
      {
        Etat: 1,
      },
    );
    expectConnectorError(result, 404, 'not-found');
    expect(await count('SELECT etat::int AS n FROM import_records WHERE installation_id = $1', [a.id])).toBe(
      0,
    );
    expect(
      (await connectorCall(ctx.app, 'POST', '/import-records', b.token, { records: [rec] })).json(),
    ).toEqual({
      inserted: 1,
      duplicates: 0,
    });
    expect(
      (await connectorCall(ctx.app, 'GET', '/import-records/queue', a.token)).json().records,
    ).toHaveLength(1);
  });

  it('a rotated token stops at once; the new one works', async () => {
    const a = await connectorInstallation(ctx.db, 'TOKROT1');
    expect((await connectorCall(ctx.app, 'GET', '/configuration', a.token)).statusCode).toBe(200);
    const fresh = await rotateConnectorToken(ctx.db, a.syncId);
    expect(fresh).not.toBe(a.token);
    for (const r of ROUTES) {
      const res = await connectorCall(ctx.app, r.method, r.path, a.token, r.body);
      expect(expectConnectorError(res, 401, 'unauthorized'), `${r.method} ${r.path}`).toBe(
        WRONG_TOKEN_MESSAGE,
      );
    }
    expect((await connectorCall(ctx.app, 'GET', '/configuration', fresh)).statusCode).toBe(200);
    expect(
      await count(`SELECT count(*)::int AS n FROM audit_log WHERE installation_id = $1 AND action = $2`, [
        a.id,
        'installation.rotate-connector-token',
      ]),
    ).toBe(1);
  });

  it.each(ROUTES)(
    '$method $path: 403 in French for a suspended or an expired installation, nothing written',
    async (r) => {
      const s = await connectorInstallation(ctx.db, `SUSP${ROUTES.indexOf(r)}`);
      await suspendInstallation(ctx.db, s.syncId);
      const suspended = await connectorCall(ctx.app, r.method, r.path, s.token, r.body);
      expect(expectConnectorError(suspended, 403, 'forbidden')).toBe(SUSPENDED_CONNECTOR_MESSAGE);

      const e = await connectorInstallation(ctx.db, `EXP${ROUTES.indexOf(r)}`);
      await setExpiry(ctx.db, e.syncId, new Date(clock.getTime() - 1000));
      const expired = await connectorCall(ctx.app, r.method, r.path, e.token, r.body);
      expect(expectConnectorError(expired, 403, 'forbidden')).toBe(EXPIRED_CONNECTOR_MESSAGE);
      for (const id of [s.id, e.id]) {
        expect(
          await count('SELECT count(*)::int AS n FROM automate_registrations WHERE installation_id = $1', [
            id,
          ]),
        ).toBe(0);
        // Refused before its rate limit: not counted (the count is made in the token's query).
        expect(
          await count('SELECT count(*)::int AS n FROM connector_rate_limits WHERE installation_id = $1', [
            id,
          ]),
        ).toBe(0);
        expect(await count('SELECT version AS n FROM configurations WHERE installation_id = $1', [id])).toBe(
          1,
        );
      }
    },
  );

  it('the token is never written to the logs nor echoed in an answer', async () => {
    const a = await connectorInstallation(ctx.db, 'TOKLOG1');
    const res = await connectorCall(ctx.app, 'POST', '/import-records', a.token, { records: 'x' });
    expect(res.body).not.toContain(a.token);
  });
});

describe('HTTP rules', () => {
  it('no origin check: a cross-site request with a valid token is served (no browser, no cookie)', async () => {
    const a = await connectorInstallation(ctx.db, 'ORIG1');
    const res = await connectorCall(
      ctx.app,
      'POST',
      '/transactions',
      a.token,
      { transactions: [] },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    );
    expect(res.statusCode, res.body).toBe(200);
    // The console's routes still refuse it.
    const console = await ctx.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(console.statusCode).toBe(403);
  });

  it('JSON only: 415 for another content type, 400 for broken JSON, nothing written', async () => {
    const a = await connectorInstallation(ctx.db, 'JSON1');
    const form = await ctx.app.inject({
      method: 'POST',
      url: '/api/connector/v1/transactions',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'transactions=1',
    });
    expectConnectorError(form, 415, 'unsupported-media-type');
    const broken = await ctx.app.inject({
      method: 'POST',
      url: '/api/connector/v1/transactions',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
      payload: '{"transactions": [',
    });
    expect(expectConnectorError(broken, 400, 'invalid-request')).toBe(
      "Le corps de la requête n'est pas un JSON valide.",
    );
  });

  it('an unknown path under the API answers 404 in the API error shape', async () => {
    const res = await connectorCall(ctx.app, 'GET', '/nothing-here', 'x');
    expectConnectorError(res, 404, 'not-found');
  });

  it('413 with a French message over a route body limit (checked before reading), nothing written', async () => {
    const a = await connectorInstallation(ctx.db, 'BIG1');
    const res = await connectorCall(ctx.app, 'POST', '/automate', a.token, {
      port: 8085,
      machineName: 'x'.repeat(20_000),
    });
    expect(expectConnectorError(res, 413, 'payload-too-large')).toBe(
      'Le corps de la requête dépasse la limite de 16 Ko de cette route : envoyez moins d’éléments par requête.',
    );
    const tx = await connectorCall(ctx.app, 'POST', '/transactions', a.token, {
      transactions: [
        { ID: 'T1', Err: 0, DateHeureTrt: '2025-11-14T09:00:00', Log: 'x'.repeat(33 * 1024 * 1024) },
      ],
    });
    expect(expectConnectorError(tx, 413, 'payload-too-large')).toContain('32 Mo');
    expect(
      await count('SELECT count(*)::int AS n FROM transaction_logs WHERE installation_id = $1', [a.id]),
    ).toBe(0);
    // Without a valid token, the body is never read: 401 even over the limit.
    const anonymous = await connectorCall(ctx.app, 'POST', '/automate', 'y'.repeat(43), {
      machineName: 'x'.repeat(20_000),
    });
    expectConnectorError(anonymous, 401, 'unauthorized');
  });

  it('the import records route reads bodies beyond the server default, up to 96 MB', async () => {
    const a = await connectorInstallation(ctx.db, 'BIG2');
    // 51 MB of Enreg and a 15 MB file (20 MB of base64): a 71 MB body is read and judged.
    const enreg = `<SyncNuxiDev><Photo>${'QUJD'.repeat(Math.ceil((51 * 1024 * 1024) / 4))}</Photo></SyncNuxiDev>`;
    const fichier = { Nom: 'photo.png', Contenu: 'QUJD'.repeat(5 * 1024 * 1024) };
    const res = await connectorCall(ctx.app, 'POST', '/import-records', a.token, {
      records: [importRecord({ Enreg: enreg, Fichier: fichier })],
    });
    expect(expectConnectorError(res, 400, 'invalid-request')).toBe(
      'Requête invalide\u00a0: records[0].Enreg\u00a0: Le fichier XML est trop volumineux (51,0 MB). La taille maximale autorisée est de 50MB.',
    );
    const over = await ctx.app.inject({
      method: 'POST',
      url: '/api/connector/v1/import-records',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
      payload: `{"records":[{"Enreg":"${'A'.repeat(97 * 1024 * 1024)}"}]}`,
    });
    expect(expectConnectorError(over, 413, 'payload-too-large')).toContain('96 Mo');
    expect(
      await count('SELECT count(*)::int AS n FROM import_records WHERE installation_id = $1', [a.id]),
    ).toBe(0);
    // A 5 MB record is stored as sent, byte for byte.
    const photo = `<SyncNuxiDev><Table>ged</Table><Photo>${'QUJD'.repeat(1280 * 1024)}</Photo></SyncNuxiDev>`;
    const ok = await connectorCall(ctx.app, 'POST', '/import-records', a.token, {
      records: [importRecord({ IDInterne: 'photo-1', Enreg: photo })],
    });
    expect(ok.json()).toEqual({ inserted: 1, duplicates: 0 });
    const stored = await readRecordValue(ctx.db, a.id, 'photo-1', 'enreg');
    expect(stored === photo).toBe(true);
  });
});

describe('rate limits', () => {
  it('429 with Retry-After past the limit of a route group, per installation, counted in the database', async () => {
    const a = await connectorInstallation(ctx.db, 'RATE1');
    const b = await connectorInstallation(ctx.db, 'RATE2');
    const report = { port: 8085, ip: '8.8.4.4' };
    for (let i = 0; i < 3; i++)
      expect((await connectorCall(ctx.app, 'POST', '/automate', a.token, report)).statusCode).toBe(200);
    const limited = await connectorCall(ctx.app, 'POST', '/automate', a.token, { ...report, port: 9000 });
    expect(expectConnectorError(limited, 429, 'too-many-requests')).toBe(
      'Trop de requêtes du connecteur sur cette route : au plus 3 par minute pour une installation. Réessayez dans 60 s.',
    );
    expect(limited.headers['retry-after']).toBe('60');
    // Nothing of the limited request was written.
    expect(
      await count('SELECT port AS n FROM automate_registrations WHERE installation_id = $1', [a.id]),
    ).toBe(8085);
    // Other route groups and other installations have their own counters.
    expect((await connectorCall(ctx.app, 'GET', '/configuration', a.token)).statusCode).toBe(200);
    expect((await connectorCall(ctx.app, 'POST', '/automate', b.token, report)).statusCode).toBe(200);
    // The counter lives in the database (shared by every server process).
    const [row] = await ctx.db.query<{ hits: number }>(
      `SELECT hits FROM connector_rate_limits WHERE installation_id = $1 AND bucket = 'automate'`,
      [a.id],
    );
    expect(row?.hits).toBe(4);
    // A second server process on the same database sees the same counter.
    const other = await testApp(ctx.db, { now: () => clock, connectorRateLimits: { automate: 3 } });
    try {
      expectConnectorError(
        await connectorCall(other, 'POST', '/automate', a.token, report),
        429,
        'too-many-requests',
      );
    } finally {
      await other.close();
    }
    // The next window starts afresh; Retry-After counts down to it.
    clock = new Date(clock.getTime() + 45_000);
    expect((await connectorCall(ctx.app, 'POST', '/automate', a.token, report)).headers['retry-after']).toBe(
      '15',
    );
    clock = new Date(clock.getTime() + 15_000);
    expect((await connectorCall(ctx.app, 'POST', '/automate', a.token, report)).statusCode).toBe(200);
  });
});
