import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInstallation, signIn, testApp } from '../../test/helpers/app.ts';
import { openTestDb } from '../../test/helpers/db.ts';
import type { Db } from '../db/types.ts';

let db: Db;
let app: FastifyInstance;
let port: number;
let cookie: string;

beforeAll(async () => {
  db = await openTestDb();
  app = await testApp(db);
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
  await addInstallation(db, { syncId: 'BODY001' });
  cookie = await signIn(app, 'BODY001');
});
afterAll(async () => {
  await app.close();
  await db.close();
});

const MB = 1024 * 1024;

/**
 * Sends the head of a request declaring `declared` bytes of body, then only `sent` bytes, and
 * waits for the answer: it can only come if the server answers without reading the body.
 */
function answerBeforeBody(
  path: string,
  headers: Record<string, string>,
  declared: number,
  sent = 1024,
): Promise<{ status: number; body: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(`no answer before the body was sent (${path}): ${received.toString('latin1', 0, 400)}`),
      );
    }, 5000);
    socket.on('connect', () => {
      const head = Object.entries({
        host: `127.0.0.1:${port}`,
        'content-type': 'application/json',
        'content-length': String(declared),
        ...headers,
      })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n`);
      socket.write(`{"x":"${'a'.repeat(sent)}`);
    });
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      const head = received.subarray(0, Math.max(0, end)).toString('latin1');
      const length = /content-length: (\d+)/i.exec(head)?.[1];
      if (end < 0 || length === undefined || received.length < end + 4 + Number(length)) return;
      clearTimeout(timer);
      const answer = {
        status: Number(head.slice(9, 12)),
        body: received.subarray(end + 4, end + 4 + Number(length)).toString('utf8'),
      };
      // Does the server close the connection rather than wait for (and read) the rest?
      const wait = setTimeout(() => {
        socket.destroy();
        resolve({ ...answer, closed: false });
      }, 2000);
      socket.once('end', () => {
        clearTimeout(wait);
        socket.destroy();
        resolve({ ...answer, closed: true });
      });
    });
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

describe('body limits', () => {
  it('an anonymous 2 MB body on /api/login gets 413 before it is read', async () => {
    const res = await answerBeforeBody('/api/login', {}, 2 * MB);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({
      message: 'Le corps de la requête dépasse la limite de 4 Ko de cette route.',
      code: 'BODY_TOO_LARGE',
    });
    expect(res.closed).toBe(true);
  });

  it('/api/login stops reading a chunked body (no Content-Length) past 4 KB', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      payload: JSON.stringify({ username: 'BODY001', password: 'x'.repeat(8 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json<{ code: string }>().code).toBe('BODY_TOO_LARGE');
  });

  it('an anonymous large body on a protected route gets 401 before it is read', async () => {
    for (const path of ['/api/sync-automate', '/api/database/complement', '/api/debug/repair-xml']) {
      const res = await answerBeforeBody(path, {}, 50 * MB);
      expect(res.status, path).toBe(401);
      expect(JSON.parse(res.body)).toEqual({
        message: 'Vous devez être connecté pour accéder à cette ressource.',
        code: 'UNAUTHORIZED',
      });
      // The connection is closed: the server does not go on reading (and discarding) 50 MB.
      expect(res.closed, path).toBe(true);
    }
    // A cookie that is no session is refused the same way, before the body.
    const forged = await answerBeforeBody(
      '/api/database/complement',
      { cookie: `synchro_session=${'A'.repeat(43)}` },
      50 * MB,
    );
    expect(forged.status).toBe(401);
  });

  it('a signed-in 2 MB settings save gets a French 413 before it is read, nothing written', async () => {
    const before = await db.query('SELECT version FROM configurations');
    const res = await answerBeforeBody('/api/database/complement', { cookie }, 2 * MB);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({
      message: 'Le corps de la requête dépasse la limite de 1 Mo de cette route.',
      code: 'BODY_TOO_LARGE',
    });
    // The same through a complete request (what a browser sends).
    const whole = await app.inject({
      method: 'POST',
      url: '/api/database/complement',
      headers: { cookie },
      payload: { scriptComplementaire: 'x'.repeat(2 * MB) },
    });
    expect(whole.statusCode).toBe(413);
    expect(await db.query('SELECT version FROM configurations')).toEqual(before);
  });

  it('the exclusions save takes a list past 1 MB (its limit is 8 MB)', async () => {
    const exclusions = Array.from({ length: 20_000 }, (_, i) => ({
      id: `FAM${i}|SUB${i}`,
      libelle: `Famille numéro ${i}`,
      type: 'ItemFamily',
    }));
    const payload = JSON.stringify({ exclusions });
    expect(payload.length).toBeGreaterThan(1.2 * MB);
    const res = await app.inject({
      method: 'POST',
      url: '/api/database/exclusions',
      headers: { cookie, 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode, res.body.slice(0, 300)).not.toBe(413);
    expect(res.statusCode).toBeLessThan(500);
    const over = await answerBeforeBody('/api/database/exclusions', { cookie }, 9 * MB);
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body)).toMatchObject({
      message: 'Le corps de la requête dépasse la limite de 8 Mo de cette route.',
    });
  });

  it('a connector route keeps its own limit and its {error, message} answer', async () => {
    const res = await answerBeforeBody(
      '/api/connector/v1/automate',
      { authorization: 'Bearer x'.padEnd(60, 'x') },
      64 * 1024,
    );
    // The token is checked first (onRequest): no body is read for an unknown token.
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ error: 'unauthorized' });
    expect(res.closed).toBe(true);
  });
});
