import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInstallation, login, testApp } from '../../../test/helpers/app.ts';
import { openTestDb } from '../../../test/helpers/db.ts';
import type { Db } from '../../db/types.ts';
import { FAILURE_WINDOW_MS } from './throttle.ts';

let db: Db;
let app: FastifyInstance;
let clock = new Date('2026-02-01T09:00:00Z');
const from = (address: string) => ({ 'x-forwarded-for': address });

beforeAll(async () => {
  db = await openTestDb();
  // trustProxy so that X-Forwarded-For sets the client address of each attempt.
  app = await testApp(db, { now: () => clock, trustProxy: true });
  await addInstallation(db, { syncId: 'THRO001' });
  await addInstallation(db, { syncId: 'THRO002' });
});
afterAll(async () => {
  await app.close();
  await db.close();
});

const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

describe('login throttling', () => {
  it('per sync id: the 6th attempt within 15 minutes gets 429 with Retry-After, even with the right client id', async () => {
    for (let i = 0; i < 5; i += 1) {
      advance(1000);
      // A different address each time: only the sync id counter fills.
      expect((await login(app, 'THRO001', 'wrong', from(`10.0.0.${i + 1}`))).statusCode).toBe(401);
    }
    advance(1000);
    const blocked = await login(app, 'THRO001', 'client-secret', from('10.0.0.99'));
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json<{ message: string }>().message).toBe(
      'Trop de tentatives de connexion échouées. Réessayez dans 15 minutes.',
    );
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Another installation from another address is not affected.
    expect((await login(app, 'THRO002', 'client-secret', from('10.0.1.1'))).statusCode).toBe(200);
  });

  it('lets the sync id in again once the oldest failure leaves the window', async () => {
    advance(FAILURE_WINDOW_MS - 5000);
    expect((await login(app, 'THRO001', 'client-secret', from('10.0.2.1'))).statusCode).toBe(200);
  });

  it('per address: 5 failures on any sync ids block that address, not the others', async () => {
    advance(FAILURE_WINDOW_MS * 2);
    for (const id of ['GUESS1', 'GUESS2', 'GUESS3', 'GUESS4', 'GUESS5']) {
      expect((await login(app, id, 'x', from('192.0.2.7'))).statusCode).toBe(401);
    }
    const blocked = await login(app, 'THRO002', 'client-secret', from('192.0.2.7'));
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    expect((await login(app, 'THRO002', 'client-secret', from('192.0.2.8'))).statusCode).toBe(200);
  });

  it('successful logins do not count', async () => {
    advance(FAILURE_WINDOW_MS * 2);
    for (let i = 0; i < 8; i += 1) {
      expect((await login(app, 'THRO002', 'client-secret', from('198.51.100.1'))).statusCode).toBe(200);
    }
    for (let i = 0; i < 4; i += 1) {
      expect((await login(app, 'THRO002', 'bad', from('198.51.100.1'))).statusCode).toBe(401);
    }
    expect((await login(app, 'THRO002', 'client-secret', from('198.51.100.1'))).statusCode).toBe(200);
  });

  it('keeps its counters in the database', async () => {
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM login_attempts WHERE key = 'addr:198.51.100.1'`,
    );
    expect(row?.n).toBe(4);
  });
});
