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
});
