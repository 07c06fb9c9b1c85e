import type {
  TDriveAccessTokenAnswer,
  TDriveConnectAnswer,
  TDriveDisconnectAnswer,
  TDriveStatus,
} from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/types.ts';
import { signIn, testApp } from '../../../test/helpers/app.ts';
import {
  connectorCall,
  connectorInstallation,
  expectConnectorError,
} from '../../../test/helpers/connector.ts';
import { openTestDb } from '../../../test/helpers/db.ts';
import { PUBLIC_URL, testClock, testMailer } from '../../../test/helpers/mail.ts';
import { connectDrive, startProvider, type TestProvider } from '../../../test/helpers/oauth-provider.ts';

/**
 * « Connecter » against a real OAuth 2.0 server started here (oauth2-mock-server): the
 * authorisation code flow with PKCE, the access token route of the connector (cached, then
 * refreshed), a revoked grant, disconnection with revocation at the provider; tokens never in an
 * answer of the console, in the audit or in the logs. Both databases.
 */

let db: Db;
let provider: TestProvider;
let app: FastifyInstance;
const clock = testClock();
const logs: string[] = [];

beforeAll(async () => {
  db = await openTestDb();
  provider = await startProvider();
  app = await testApp(db, {
    now: () => clock.now,
    mailer: testMailer(null),
    drive: { google: provider.client, onedrive: null },
    logStream: { write: (line: string) => logs.push(String(line)) } as unknown as NodeJS.WritableStream,
  });
});
afterAll(async () => {
  await app.close();
  await provider.stop();
  await db.close();
});

const status = async (cookie: string) =>
  (await app.inject({ url: '/api/drive', headers: { cookie } })).json<TDriveStatus>();

const connect = (cookie: string) => connectDrive(app, cookie);

describe('« Connecter »', () => {
  it('authorisation code with PKCE: the provider is asked as it should be, the account is shown', async () => {
    const inst = await connectorInstallation(db, 'DRIVE001');
    const cookie = await signIn(app, 'DRIVE001');
    expect(await status(cookie)).toEqual({ configured: { google: true, onedrive: false }, link: null });

    const res = await app.inject({
      method: 'POST',
      url: '/api/drive/connect',
      headers: { cookie },
      payload: { provider: 'google' },
    });
    const url = new URL(res.json<TDriveConnectAnswer>().authorizationUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.url}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'console-client-id',
      redirect_uri: `${PUBLIC_URL}/api/drive/callback`,
      code_challenge_method: 'S256',
      access_type: 'offline',
      prompt: 'consent',
    });
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.has('client_secret')).toBe(false);

    expect(await connect(cookie)).toBe('/complement?drive=connected');
    const after = await status(cookie);
    expect(after.link).toMatchObject({
      provider: 'google',
      account: 'compte.ged@exemple.fr',
      state: 'connected',
    });
    expect(provider.grants).toContain('authorization_code');
    // The refresh token is kept sealed: not in clear anywhere in the database.
    const refresh = provider.refreshTokens.at(-1) as string;
    const [row] = await db.query<{ dump: string }>(
      `SELECT d::text AS dump FROM drive_links d WHERE installation_id = $1`,
      [inst.id],
    );
    expect(row?.dump).not.toContain(refresh);
    expect(row?.dump).not.toContain(Buffer.from(refresh).toString('hex'));
    const audit = await db.query<{ details: unknown }>(
      `SELECT details FROM audit_log WHERE installation_id = $1 AND action = 'drive.connect'`,
      [inst.id],
    );
    expect(audit).toEqual([{ details: { provider: 'google' } }]);
  });

  it('a callback is single use, bound to its session, and refused after 10 minutes', async () => {
    await connectorInstallation(db, 'DRIVE002');
    const cookie = await signIn(app, 'DRIVE002');
    const other = await signIn(app, 'DRIVE002');
    const start = async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/drive/connect',
        headers: { cookie },
        payload: { provider: 'google' },
      });
      const atProvider = await fetch(res.json<TDriveConnectAnswer>().authorizationUrl, {
        redirect: 'manual',
      });
      const back = new URL(atProvider.headers.get('location') ?? '');
      return `${back.pathname}${back.search}`;
    };
    const fromOtherSession = await start();
    const refused = await app.inject({ url: fromOtherSession, headers: { cookie: other } });
    expect(refused.headers.location).toBe('/complement?drive=invalid');
    const late = await start();
    clock.advance(11 * 60_000);
    expect((await app.inject({ url: late, headers: { cookie } })).headers.location).toBe(
      '/complement?drive=expired',
    );
    expect((await app.inject({ url: late, headers: { cookie } })).headers.location).toBe(
      '/complement?drive=invalid',
    );
    const denied = await app.inject({
      url: '/api/drive/callback?error=access_denied&state=x',
      headers: { cookie },
    });
    expect(denied.headers.location).toBe('/complement?drive=denied');
    expect((await status(cookie)).link).toBeNull();
    // Back from the provider without a session (another browser, a session ended meanwhile):
    // the screen with « expirée », not a JSON 401 page; nothing connected.
    const sessionless = await start();
    const lost = await app.inject({ url: sessionless });
    expect(lost.statusCode).toBe(302);
    expect(lost.headers.location).toBe('/complement?drive=expired');
    expect((await status(cookie)).link).toBeNull();
  });

  it('a provider without OAuth client on this server: « Connexion au Drive non configurée sur ce serveur »', async () => {
    await connectorInstallation(db, 'DRIVE003');
    const cookie = await signIn(app, 'DRIVE003');
    const res = await app.inject({
      method: 'POST',
      url: '/api/drive/connect',
      headers: { cookie },
      payload: { provider: 'onedrive' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toBe(
      'Connexion au Drive non configurée sur ce serveur (OneDrive).',
    );
    const bad = await app.inject({
      method: 'POST',
      url: '/api/drive/connect',
      headers: { cookie },
      payload: { provider: 'dropbox' },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('the connector’s access token', () => {
  it('given while valid, refreshed near its end, refused once revoked, gone after « Déconnecter »', async () => {
    const inst = await connectorInstallation(db, 'DRIVE004');
    const cookie = await signIn(app, 'DRIVE004');
    expectConnectorError(
      await connectorCall(app, 'GET', '/drive/access-token', inst.token),
      404,
      'not-found',
    );
    expect(await connect(cookie)).toBe('/complement?drive=connected');

    const first = await connectorCall(app, 'GET', '/drive/access-token', inst.token);
    expect(first.statusCode, first.body).toBe(200);
    const token = first.json<TDriveAccessTokenAnswer>();
    expect(token).toMatchObject({
      Type_Drive: 'google',
      Compte: 'compte.ged@exemple.fr',
      token_type: 'Bearer',
    });
    expect(token.expires_in).toBeGreaterThan(3000);
    expect(first.headers['cache-control']).toBe('no-store');
    const grants = provider.grants.length;
    // Cached while it has more than 5 minutes to live: the provider is not asked.
    clock.advance(30 * 60_000);
    const again = (
      await connectorCall(app, 'GET', '/drive/access-token', inst.token)
    ).json<TDriveAccessTokenAnswer>();
    expect(again.access_token).toBe(token.access_token);
    expect(provider.grants.length).toBe(grants);
    // Near its end: refreshed with the refresh token.
    clock.advance(26 * 60_000);
    const refreshed = (
      await connectorCall(app, 'GET', '/drive/access-token', inst.token)
    ).json<TDriveAccessTokenAnswer>();
    expect(provider.grants.slice(grants)).toEqual(['refresh_token']);
    // A new token, valid an hour from now (the mock signs the same claims within one second).
    expect(Date.parse(refreshed.expires_at)).toBe(clock.now.getTime() + refreshed.expires_in * 1000);
    expect(refreshed.expires_in).toBeGreaterThan(3000);

    // The provider no longer honours the grant: 409, and the screen says so.
    provider.revoked = true;
    clock.advance(60 * 60_000);
    const revoked = await connectorCall(app, 'GET', '/drive/access-token', inst.token);
    expect(expectConnectorError(revoked, 409, 'conflict')).toBe(
      'La connexion au Drive a été révoquée ou a expiré : reconnectez-le dans la console (écran Complément, « Connecter »).',
    );
    expect((await status(cookie)).link?.state).toBe('revoked');
    provider.revoked = false;

    // Connect again, then disconnect: revoked at the provider, deleted here.
    expect(await connect(cookie)).toBe('/complement?drive=connected');
    expect((await status(cookie)).link?.state).toBe('connected');
    const refresh = provider.refreshTokens.at(-1) as string;
    const out = await app.inject({ method: 'POST', url: '/api/drive/disconnect', headers: { cookie } });
    expect(out.json<TDriveDisconnectAnswer>()).toMatchObject({ link: null, grantKept: false });
    await expect.poll(() => provider.revocations).toContain(refresh);
    expectConnectorError(
      await connectorCall(app, 'GET', '/drive/access-token', inst.token),
      404,
      'not-found',
    );
    const audit = await db.query<{ action: string }>(
      `SELECT action FROM audit_log WHERE installation_id = $1 AND action LIKE 'drive.%' ORDER BY id`,
      [inst.id],
    );
    expect(audit.map((a) => a.action)).toEqual([
      'drive.connect',
      'drive.connect',
      'drive.revoke-previous',
      'drive.disconnect',
    ]);
  });

  it('no token of the provider in the logs, and no refresh token in any answer', () => {
    const all = logs.join('\n');
    for (const t of provider.refreshTokens) expect(all).not.toContain(t);
    expect(all).not.toContain('console-client-secret');
  });
});
