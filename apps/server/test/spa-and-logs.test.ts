import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/types.ts';
import { redactUrl } from '../src/http/logging.ts';
import { addInstallation, login, sessionCookie, testApp } from './helpers/app.ts';
import { openTestDb } from './helpers/db.ts';

let db: Db;
let app: FastifyInstance;
const web = mkdtempSync(join(tmpdir(), 'synchro-web-'));
let logs = '';

beforeAll(async () => {
  mkdirSync(join(web, 'assets'));
  writeFileSync(join(web, 'index.html'), '<!doctype html><title>Synchro</title>');
  writeFileSync(join(web, 'assets', 'index-abc123.js'), 'console.log(1)');
  db = await openTestDb();
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs += chunk.toString();
      done();
    },
  });
  app = await testApp(db, { webDistDir: web, logLevel: 'debug', logStream: stream });
  await addInstallation(db, { syncId: 'SPA001', clientId: 'tres-secret-client' });
});
afterAll(async () => {
  await app.close();
  await db.close();
  rmSync(web, { recursive: true, force: true });
});

describe('serving the SPA', () => {
  it('serves index.html without caching at / and for every client route', async () => {
    for (const url of ['/', '/planning', '/exclusions/family', '/auth?syncId=A&clientId=B']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<title>Synchro</title>');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    }
  });

  it('caches hashed assets for a year', async () => {
    const res = await app.inject({ url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('keeps unknown /api paths as JSON 404, not the SPA', async () => {
    const res = await app.inject({ url: '/api/unknown' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});

const TOKEN_SHAPED = 'AbCdEf0123456789_-xyzXYZAbCdEf0123456789_-x';

describe('logs', () => {
  it('never contain the client id, the session cookie or the configuration', async () => {
    const res = await login(app, 'SPA001', 'tres-secret-client');
    const cookie = sessionCookie(res);
    await app.inject({ url: '/api/user', headers: { cookie } });
    await app.inject({ url: '/auth?syncId=SPA001&clientId=tres-secret-client' });
    await login(app, 'SPA001', 'mauvais-secret');
    expect(logs).toContain('/api/login');
    expect(logs).not.toContain('tres-secret-client');
    expect(logs).not.toContain('mauvais-secret');
    expect(logs).not.toContain(cookie.split('=')[1]);
    expect(logs).not.toContain('DemoSociete');
  });

  it('mask secret query parameters in logged URLs', () => {
    expect(redactUrl('/auth?syncId=A1&clientId=xyz&x=1')).toBe('/auth?syncId=A1&clientId=[masqué]&x=1');
  });

  it.each([
    ['/api/user?access_token=abc123', '/api/user?access_token=[masqué]'],
    ['/x?refresh_token=r&id_token=i&page=2', '/x?refresh_token=[masqué]&id_token=[masqué]&page=2'],
    ['/x?api_key=k&apiKey=k2&X-Api-Key=k3', '/x?api_key=[masqué]&apiKey=[masqué]&X-Api-Key=[masqué]'],
    ['/x?session=s&sessionId=s2&sid=s3', '/x?session=[masqué]&sessionId=[masqué]&sid=[masqué]'],
    [
      '/x?secret=s&client_secret=c&pwd=p&passwd=p2&mdp=m',
      '/x?secret=[masqué]&client_secret=[masqué]&pwd=[masqué]&passwd=[masqué]&mdp=[masqué]',
    ],
    [
      '/x?code=oauth&state=abc&signature=sig&sig=s2',
      '/x?code=[masqué]&state=abc&signature=[masqué]&sig=[masqué]',
    ],
    ['/x?authorization=Bearer%20t&auth=a&jwt=j', '/x?authorization=[masqué]&auth=[masqué]&jwt=[masqué]'],
    // Spellings the query parser reads as the same name: case, percent-encoding, brackets, `;`.
    ['/x?ACCESS_TOKEN=a&Access-Token=b', '/x?ACCESS_TOKEN=[masqué]&Access-Token=[masqué]'],
    ['/x?%61ccess_token=a&client%49d=b', '/x?%61ccess_token=[masqué]&client%49d=[masqué]'],
    ['/x?token[]=a&token[0]=b', '/x?token[]=[masqué]&token[0]=[masqué]'],
    ['/x?a=1;access_token=b', '/x?a=1;access_token=[masqué]'],
    // A value of our tokens' shape (32 random bytes in base64url: session, connector) under any
    // name, or alone.
    [`/x?q=${TOKEN_SHAPED}`, '/x?q=[masqué]'],
    [`/x?${TOKEN_SHAPED}`, '/x?[masqué]'],
    // Untouched: ordinary parameters of the console.
    [
      '/api/sync-history?page=2&pageSize=25&errorOnly=true&date=2025-01-01&search=devis&cursor=eyJ.abc',
      '/api/sync-history?page=2&pageSize=25&errorOnly=true&date=2025-01-01&search=devis&cursor=eyJ.abc',
    ],
    ['/auth?syncId=DEMOA001', '/auth?syncId=DEMOA001'],
  ])('masks token-like query parameters: %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });

  it('a request carrying an access_token in its query string is logged without it', async () => {
    await app.inject({ url: '/api/user?access_token=jeton-tres-secret-42' });
    await app.inject({
      url: '/api/dashboard?Access_Token=jeton-tres-secret-43&%74oken=jeton-tres-secret-44',
    });
    expect(logs).toContain('/api/user?access_token=[masqué]');
    expect(logs).not.toMatch(/jeton-tres-secret/);
  });
});
