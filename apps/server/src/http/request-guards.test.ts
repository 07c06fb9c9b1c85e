import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInstallation, signIn, testApp } from '../../test/helpers/app.ts';
import { openTestDb } from '../../test/helpers/db.ts';
import type { Db } from '../db/types.ts';

/**
 * The browser guards (origin, JSON only, no-store) hold whatever the spelling of the path: the
 * router decodes `%61` into `a`, so a test on the raw URL let `/%61pi/...` through.
 */

let db: Db;
let app: FastifyInstance;
let cookie: string;
const HOST = 'console.test';

beforeAll(async () => {
  db = await openTestDb();
  app = await testApp(db);
  await addInstallation(db, { syncId: 'GUARD01' });
  cookie = await signIn(app, 'GUARD01');
});
afterAll(async () => {
  await app.close();
  await db.close();
});

/** Spellings of POST /api/debug/repair-xml; `reaches`: the router gives them to the route. */
const SPELLINGS: { url: string; reaches: boolean }[] = [
  { url: '/api/debug/repair-xml', reaches: true },
  { url: '/%61pi/debug/repair-xml', reaches: true },
  { url: '/%61%70%69/debug/repair-xml', reaches: true },
  { url: '/api/debug/repair-xm%6C', reaches: true },
  { url: '/api/%64ebug/repair-xml?x=1', reaches: true },
  { url: '/API/debug/repair-xml', reaches: false },
  { url: '//api/debug/repair-xml', reaches: false },
  // light-my-request resolves the dot segment, as a browser would.
  { url: '/api/./debug/repair-xml', reaches: true },
  { url: '/api/debug/repair-xml/', reaches: false },
  { url: '/api%2Fdebug/repair-xml', reaches: false },
];

const post = (url: string, headers: Record<string, string>, payload: string | object = {}) =>
  app.inject({ method: 'POST', url, headers: { host: HOST, cookie, ...headers }, payload });

describe('request guards on every spelling of a mutating route', () => {
  it.each(SPELLINGS)(
    '$url: a signed-in same-origin JSON POST reaches the route: $reaches',
    async ({ url, reaches }) => {
      const res = await post(url, { origin: `http://${HOST}` });
      expect(res.statusCode, res.body).toBe(reaches ? 200 : 404);
      expect(res.headers['cache-control']).toBe('no-store');
    },
  );

  it.each(SPELLINGS)('$url: another origin is refused with 403 and not stored', async ({ url }) => {
    const attempts: Record<string, string>[] = [
      { origin: 'http://evil.test' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of attempts) {
      const res = await post(url, headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json()).toEqual({
        message: "Requête refusée : elle ne provient pas de l'origine de la console.",
        code: 'CROSS_ORIGIN',
      });
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it.each(SPELLINGS)('$url: a form or text body is refused with 415', async ({ url }) => {
    for (const contentType of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const res = await post(url, { 'content-type': contentType }, 'a=1');
      expect(res.statusCode, contentType).toBe(415);
      expect(res.json<{ code: string }>().code).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('a settings save spelled /%61pi/... is refused cross-origin, and nothing is written', async () => {
    const before = await db.query<{ version: number }>('SELECT version FROM configurations');
    const res = await app.inject({
      method: 'POST',
      url: '/%61pi/database/complement',
      headers: { host: HOST, cookie, origin: 'http://evil.test' },
      payload: {},
    });
    expect(res.statusCode).toBe(403);
    expect(await db.query('SELECT version FROM configurations')).toEqual(before);
  });

  it('GET answers of API routes are not stored whatever the spelling; unknown paths neither', async () => {
    for (const url of ['/api/nothing-here', '/API/user', '/api/server-ip', '/api/import-history']) {
      const res = await app.inject({ method: 'GET', url, headers: { cookie } });
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    // The stored representations only (http/representations.ts): kept by this browser, never by a
    // shared cache, revalidated every time (the session is checked before the ETag).
    for (const url of ['/api/user', '/%61pi/user', '/api/%75ser']) {
      const res = await app.inject({ method: 'GET', url, headers: { cookie } });
      expect(res.headers['cache-control'], url).toBe('private, no-cache');
    }
  });
});

/** A POST over a real socket with the path exactly as written (no client-side normalisation). */
function rawPost(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; cacheControl: string }> {
  const { port } = app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: url, headers }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, cacheControl: String(res.headers['cache-control']) }),
      );
    });
    req.on('error', reject);
    req.end('{}');
  });
}

describe('over a real socket', () => {
  it('the encoded spellings are refused cross-origin and with a text body', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    for (const { url } of SPELLINGS) {
      const json = { 'content-type': 'application/json', cookie };
      const crossSite = await rawPost(url, { ...json, origin: 'http://evil.test' });
      expect(crossSite, url).toEqual({ status: 403, cacheControl: 'no-store' });
      const text = await rawPost(url, { cookie, 'content-type': 'text/plain' });
      expect(text, url).toEqual({ status: 415, cacheControl: 'no-store' });
    }
    const reached = await rawPost('/%61pi/debug/repair-xm%6C', {
      'content-type': 'application/json',
      cookie,
    });
    expect(reached.status).toBe(200);
  });
});

describe('the connector API', () => {
  it('skips the origin check but not the JSON rule, also when its path is encoded', async () => {
    for (const url of ['/api/connector/v1/automate', '/%61pi/connector/v1/automate']) {
      // A bearer token, not a cookie: an Origin does not matter, the token does (401 without a valid one).
      const fromElsewhere = await app.inject({
        method: 'POST',
        url,
        headers: { origin: 'http://evil.test', authorization: 'Bearer nope' },
        payload: {},
      });
      expect(fromElsewhere.statusCode, url).toBe(401);
      expect(fromElsewhere.json<{ error: string }>().error).toBe('unauthorized');
      const text = await app.inject({
        method: 'POST',
        url,
        headers: { authorization: 'Bearer nope', 'content-type': 'text/plain' },
        payload: 'x',
      });
      expect(text.statusCode, url).toBe(415);
      expect(text.json<{ error: string }>().error).toBe('unsupported-media-type');
      expect(text.headers['cache-control']).toBe('no-store');
    }
  });
});
