import { SECRET_PLACEHOLDER, ZUser } from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addInstallation,
  FIXTURE_CONFIG,
  login,
  sessionCookie,
  signIn,
  testApp,
} from '../../../test/helpers/app.ts';
import { openTestDb } from '../../../test/helpers/db.ts';
import { capture } from '../../../test/helpers/secret-capture.ts';
import type { Db } from '../../db/types.ts';
import { suspendInstallation } from '../../domain/installation-admin.ts';
import { SESSION_IDLE_MS } from '../../domain/sessions.ts';

let db: Db;
let app: FastifyInstance;
let clock = new Date('2026-01-15T10:00:00Z');

beforeAll(async () => {
  db = await openTestDb();
  app = await testApp(db, { now: () => clock });
  await addInstallation(db, { syncId: 'AUTH001' });
  await addInstallation(db, { syncId: 'SUSP001' });
  await addInstallation(db, { syncId: 'EXP001' });
  await addInstallation(db, { syncId: 'LATE001' });
});
afterAll(async () => {
  await app.close();
  await db.close();
});

describe('POST /api/login', () => {
  it('answers the user and sets an HttpOnly SameSite=Lax session cookie on /', async () => {
    const res = await login(app, 'AUTH001');
    expect(res.statusCode).toBe(200);
    const user = ZUser.parse(res.json());
    expect(user).toMatchObject({
      IDSynchro: 'AUTH001',
      Premium: 1,
      Options: '25;AUTH001;A',
      configVersion: 1,
    });
    const cookie = res.cookies.find((c) => c.name === 'synchro_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('upper-cases the sync id as the login screen does: aUth001 signs in as AUTH001', async () => {
    const res = await login(app, 'aUth001');
    expect(res.statusCode, res.body).toBe(200);
    expect(ZUser.parse(res.json()).IDSynchro).toBe('AUTH001');
    const [audit] = await db.query<{ sync_id: string }>(
      `SELECT sync_id FROM audit_log WHERE action = 'login.success' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit?.sync_id).toBe('AUTH001');
    // Only the case changes: other characters are still refused.
    expect((await login(app, 'auth-001')).statusCode).toBe(400);
  });

  it('over HTTPS (trusted proxy): a Secure __Host- cookie, read back only under that name, and HSTS', async () => {
    const proxied = await testApp(db, { trustProxy: 1 });
    const https = { 'x-forwarded-proto': 'https' };
    try {
      const res = await login(proxied, 'AUTH001', 'client-secret', https);
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
      expect(res.cookies.map((c) => c.name)).toEqual([
        '__Host-synchro_session',
        '__Host-synchro_device_AUTH001',
      ]);
      const cookie = res.cookies[0];
      expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(cookie?.domain).toBeUndefined();
      // The device cookie (docs/security.md, Sign-in): same protections, sent to the sign-in only
      // from the console's own pages, kept 90 days.
      expect(res.cookies[1]).toMatchObject({
        secure: true,
        httpOnly: true,
        sameSite: 'Strict',
        path: '/',
        maxAge: 90 * 24 * 3600,
      });
      expect(res.cookies[1]?.domain).toBeUndefined();
      capture.register(res.cookies[1]?.value, 'session-token');
      const token = cookie?.value ?? '';
      const user = (headers: Record<string, string>) =>
        proxied.inject({ url: '/api/user', headers: { ...https, ...headers } });
      const ok = await user({ cookie: `__Host-synchro_session=${token}` });
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['strict-transport-security']).toBe('max-age=31536000');
      // The plain name (which anyone on plain HTTP could set) is not read over HTTPS…
      expect((await user({ cookie: `synchro_session=${token}` })).statusCode).toBe(401);
      // …nor the __Host- one over HTTP.
      const overHttp = await proxied.inject({
        url: '/api/user',
        headers: { cookie: `__Host-synchro_session=${token}` },
      });
      expect(overHttp.statusCode).toBe(401);
      expect(overHttp.headers['strict-transport-security']).toBeUndefined();
      // Logout clears the __Host- cookie with the attributes it was set with.
      const out = await proxied.inject({
        method: 'POST',
        url: '/api/logout',
        headers: { ...https, cookie: `__Host-synchro_session=${token}` },
      });
      expect(out.cookies).toMatchObject([
        { name: '__Host-synchro_session', value: '', secure: true, path: '/' },
      ]);
      expect((await user({ cookie: `__Host-synchro_session=${token}` })).statusCode).toBe(401);
    } finally {
      await proxied.close();
    }
  });

  it('over plain HTTP: the plain synchro_session cookie, not Secure, no HSTS', async () => {
    const res = await login(app, 'AUTH001');
    expect(res.cookies.map((c) => c.name)).toEqual(['synchro_session', 'synchro_device_AUTH001']);
    expect(res.cookies.map((c) => c.secure)).toEqual([undefined, undefined]);
    expect(res.headers['strict-transport-security']).toBeUndefined();
    // Without the trust setting, X-Forwarded-Proto is not believed.
    const direct = await login(app, 'AUTH001', 'client-secret', { 'x-forwarded-proto': 'https' });
    expect(direct.cookies.map((c) => c.name)).toEqual(['synchro_session', 'synchro_device_AUTH001']);
    expect(direct.cookies.map((c) => c.secure)).toEqual([undefined, undefined]);
    expect(direct.headers['strict-transport-security']).toBeUndefined();
  });

  it('gives the same 401 message for an unknown sync id and a wrong client id', async () => {
    const wrong = await login(app, 'AUTH001', 'not-the-secret', { 'x-forwarded-for': '1' });
    const unknown = await login(app, 'NOBODY', 'client-secret');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'Identifiants incorrects', code: 'BAD_CREDENTIALS' });
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.cookies).toHaveLength(0);
  });

  it('refuses invalid input with 400 and a French message', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'ab-c', password: '' },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ message: string }>();
    expect(body.message).toContain('majuscules');
    expect(body.message).toContain("L'ID Client est obligatoire");
    const missing = await app.inject({ method: 'POST', url: '/api/login', payload: {} });
    expect(missing.json<{ message: string }>().message).toContain('username : champ obligatoire');
  });

  it('gives a new session id at every login and ends the previous one of this browser', async () => {
    const first = await signIn(app, 'AUTH001');
    const second = sessionCookie(await login(app, 'AUTH001', 'client-secret', { cookie: first }));
    expect(second).not.toBe(first);
    expect((await app.inject({ url: '/api/user', headers: { cookie: first } })).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/user', headers: { cookie: second } })).statusCode).toBe(200);
  });

  it('records the attempt in the audit log without any secret', async () => {
    const rows = await db.query<{ action: string; details: unknown }>(
      `SELECT action, details FROM audit_log WHERE sync_id = 'AUTH001' ORDER BY id`,
    );
    expect(rows.map((r) => r.action)).toContain('login.success');
    expect(rows.map((r) => r.action)).toContain('login.failure');
    expect(JSON.stringify(rows)).not.toMatch(/client-secret|not-the-secret/);
  });
});

describe('GET /api/user', () => {
  it('answers 401 with a French message without a session, or with a forged cookie', async () => {
    const none = await app.inject({ url: '/api/user' });
    expect(none.statusCode).toBe(401);
    expect(none.json<{ message: string }>().message).toMatch(/connecté/);
    const forged = await app.inject({
      url: '/api/user',
      headers: { cookie: `synchro_session=${'A'.repeat(43)}` },
    });
    expect(forged.statusCode).toBe(401);
  });

  it('carries the configuration with every secret replaced by the placeholder', async () => {
    const cookie = await signIn(app, 'AUTH001');
    const res = await app.inject({ url: '/api/user', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const body = res.body;
    // Every secret of the fixture: each MDP, each value under a Token, found independently here.
    const secrets = [
      ...FIXTURE_CONFIG.matchAll(/<MDP>([^<]{2,})<\/MDP>/g),
      ...FIXTURE_CONFIG.matchAll(/<Token>[\s\S]*?<Valeur>([^<]+)<\/Valeur>/g),
    ].map((m) => m[1] ?? '');
    expect(secrets).toEqual(
      expect.arrayContaining(['Demo-75e469', 'Demo-9a2289', 'PGpldG9uLWRlLWRlbW9uc3RyYXRpb24vPg==']),
    );
    for (const secret of secrets) expect(body).not.toContain(secret);
    const user = ZUser.parse(res.json());
    expect(user.ConfigConnecteur).toContain(SECRET_PLACEHOLDER);
    expect(user.ConfigConnecteur).toMatch(
      /<EspaceClient>\s*<Utilisateur>••••••••<\/Utilisateur>\s*<MDP>••••••••<\/MDP>/,
    );
    // Non-secret values are kept.
    expect(user.ConfigConnecteur).toContain('<Provider>SQLOLEDB</Provider>');
    expect(user.Tablettes).toBe('1;EBP GesCom Open Line;EBPGesComOL|2;EBP Gestion Open Line;GesCom');
  });

  it('counts the schedules per type', async () => {
    const cookie = await signIn(app, 'AUTH001');
    const user = ZUser.parse((await app.inject({ url: '/api/user', headers: { cookie } })).json());
    // The fixture has no Planning entry.
    expect(user.planningCounts).toEqual({ C: 0, R: 0, I: 0 });
  });
});

describe('session end', () => {
  it('logout ends the session server side and clears the cookie', async () => {
    const cookie = await signIn(app, 'AUTH001');
    const res = await app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const cleared = res.cookies.find((c) => c.name === 'synchro_session');
    expect(cleared?.value).toBe('');
    expect(cleared?.expires?.getTime() ?? cleared?.maxAge).toBeLessThanOrEqual(Date.now());
    expect((await app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(401);
  });

  it('logout accepts an empty body sent as application/json', async () => {
    const cookie = await signIn(app, 'AUTH001');
    const res = await app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { cookie, 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(200);
    expect((await app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(401);
  });

  it('a session idle for 12 hours is refused', async () => {
    const cookie = await signIn(app, 'LATE001');
    clock = new Date(clock.getTime() + SESSION_IDLE_MS - 60_000);
    expect((await app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(200);
    clock = new Date(clock.getTime() + SESSION_IDLE_MS - 60_000);
    expect((await app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(200);
    clock = new Date(clock.getTime() + SESSION_IDLE_MS + 1000);
    expect((await app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(401);
  });

  it('sessions left idle are removed from the table at the next login of anyone', async () => {
    await signIn(app, 'LATE001');
    clock = new Date(clock.getTime() + SESSION_IDLE_MS + 1000);
    await signIn(app, 'AUTH001');
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM sessions WHERE last_seen_at <= $1`,
      [new Date(clock.getTime() - SESSION_IDLE_MS)],
    );
    expect(row?.n).toBe(0);
  });

  it('a session older than 7 days is refused even when used every hour', async () => {
    const cookie = await signIn(app, 'LATE001');
    for (let hour = 1; hour < 7 * 24; hour += 11) {
      clock = new Date(clock.getTime() + 11 * 3600_000);
      const res = await app.inject({ url: '/api/user', headers: { cookie } });
      expect(res.statusCode).toBe(hour + 11 < 7 * 24 ? 200 : 401);
    }
  });
});

describe('suspended and expired installations', () => {
  it('a suspended installation cannot sign in and loses its sessions', async () => {
    const cookie = await signIn(app, 'SUSP001');
    await suspendInstallation(db, 'SUSP001');
    expect((await app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(401);
    const res = await login(app, 'SUSP001');
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toContain('suspendue');
    expect(res.cookies).toHaveLength(0);
    // A wrong client id still gets the generic answer: suspension is not revealed to guessers.
    expect((await login(app, 'SUSP001', 'wrong')).statusCode).toBe(401);
  });

  it('refusals and logouts are in the audit log', async () => {
    const rows = await db.query<{ sync_id: string; action: string; details: { reason?: string } | null }>(
      `SELECT sync_id, action, details FROM audit_log WHERE action IN ('login.refused', 'logout') ORDER BY id`,
    );
    expect(rows).toContainEqual({
      sync_id: 'SUSP001',
      action: 'login.refused',
      details: { reason: 'suspended' },
    });
    expect(rows.some((r) => r.action === 'logout' && r.sync_id === 'AUTH001')).toBe(true);
  });

  it('an expired installation cannot sign in; its open sessions are refused and deleted', async () => {
    const cookie = await signIn(app, 'EXP001');
    await db.query(`UPDATE installations SET expires_at = $1 WHERE sync_id = 'EXP001'`, [
      new Date(clock.getTime() - 1000),
    ]);
    const user = await app.inject({ url: '/api/user', headers: { cookie } });
    expect(user.statusCode).toBe(401);
    expect(user.json<{ message: string }>().message).toContain('expiré');
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM sessions s JOIN installations i ON i.id = s.installation_id WHERE i.sync_id = 'EXP001'`,
    );
    expect(row?.n).toBe(0);
    const res = await login(app, 'EXP001');
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toContain('expiré');
  });
});
