import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from './helpers/db.ts';
import { addInstallation, signIn, testApp } from './helpers/app.ts';
import type { Db } from '../src/db/types.ts';

let db: Db;
let app: FastifyInstance;
let cookie: string;

beforeAll(async () => {
  db = await openTestDb();
  app = await testApp(db);
  await addInstallation(db, { syncId: 'RULES01' });
  cookie = await signIn(app, 'RULES01');
});
afterAll(async () => {
  await app.close();
  await db.close();
});

const PROTECTED: { method: 'GET' | 'POST'; url: string; payload?: object }[] = [
  { method: 'GET', url: '/api/user' },
  { method: 'GET', url: '/api/dashboard' },
  { method: 'GET', url: '/api/server-ip' },
  { method: 'POST', url: '/api/sync-automate', payload: { type: 'C' } },
];

describe('protected routes', () => {
  it.each(PROTECTED)('$method $url answers 401 with a French message without a session', async (route) => {
    const res = await app.inject({
      method: route.method,
      url: route.url,
      ...(route.payload ? { payload: route.payload } : {}),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      message: 'Vous devez être connecté pour accéder à cette ressource.',
      code: 'UNAUTHORIZED',
    });
  });
});

describe('cross-site request defence', () => {
  const post = (headers: Record<string, string>, payload: string | object = { type: 'C' }) =>
    app.inject({
      method: 'POST',
      url: '/api/sync-automate',
      headers: { cookie, host: 'console.test', ...headers },
      payload,
    });

  it('accepts a same-origin request, and one without Origin or Referer (non-browser client)', async () => {
    expect((await post({ origin: 'http://console.test' })).statusCode).toBe(200);
    expect((await post({})).statusCode).toBe(200);
    expect((await post({ referer: 'http://console.test/planning' })).statusCode).toBe(200);
  });

  it('refuses another Origin, another Referer, Origin null and Sec-Fetch-Site cross-site with 403', async () => {
    const attempts: Record<string, string>[] = [
      { origin: 'http://evil.test' },
      { origin: 'https://console.test' },
      { origin: 'null' },
      { referer: 'http://evil.test/page' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of attempts) {
      const res = await post(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json()).toEqual({
        message: "Requête refusée : elle ne provient pas de l'origine de la console.",
        code: 'CROSS_ORIGIN',
      });
    }
    // The login itself is protected too.
    const res = await app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { host: 'console.test', origin: 'http://evil.test' },
      payload: { username: 'RULES01', password: 'client-secret' },
    });
    expect(res.statusCode).toBe(403);
  });

  it('accepts an origin listed in ALLOWED_ORIGINS', async () => {
    const dev = await testApp(db, { allowedOrigins: ['http://localhost:5173'] });
    try {
      const res = await dev.inject({
        method: 'POST',
        url: '/api/sync-automate',
        headers: { cookie, origin: 'http://localhost:5173' },
        payload: { type: 'C' },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await dev.close();
    }
  });

  it('refuses form-encoded and text bodies with 415', async () => {
    for (const contentType of [
      'application/x-www-form-urlencoded',
      'text/plain',
      'multipart/form-data; boundary=x',
    ]) {
      const res = await post({ 'content-type': contentType }, 'type=C');
      expect(res.statusCode, contentType).toBe(415);
      expect(res.json<{ message: string }>().message).toContain('JSON');
    }
    const login = await app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'username=RULES01&password=client-secret',
    });
    expect(login.statusCode).toBe(415);
  });
});

describe('errors', () => {
  it('an unknown /api route is a 404 JSON in French', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await app.inject({ method, url: '/api/nope?x=1' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json()).toEqual({
        message: `Ressource introuvable : ${method} /api/nope`,
        code: 'NOT_FOUND',
      });
    }
  });

  it('malformed JSON gets a French 400 without a stack trace', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: "Le corps de la requête n'est pas un JSON valide.",
      code: 'FST_ERR_CTP_INVALID_JSON_BODY',
    });
    expect(res.body).not.toMatch(/at .*\.(ts|js):\d+|stack/i);
  });

  it('an unexpected failure is a French 500 without details', async () => {
    const broken = await testApp({
      ...db,
      query: async () => {
        throw new Error('connection refused at secret-host:5432');
      },
    });
    try {
      const res = await broken.inject({ url: '/api/user', headers: { cookie } });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        message: 'Erreur interne du serveur. Réessayez plus tard.',
        code: 'INTERNAL',
      });
    } finally {
      await broken.close();
    }
  });
});

describe('security headers', () => {
  it('every answer carries CSP, nosniff, frame deny and a referrer policy; API answers are not cached', async () => {
    const res = await app.inject({ url: '/api/server-ip', headers: { cookie } });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('the repeated reads (/api/user) are kept by the browser only and revalidated: private, no-cache with an ETag, same security headers', async () => {
    const res = await app.inject({ url: '/api/user', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers.etag).toMatch(/^"[^"]+"$/);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

// GET /api/server-ip and POST /api/sync-automate: features/server-ip/server-ip.test.ts and
// features/sync-automate/sync-automate.test.ts.
