import { TRANSACTION_LOGS_PATH, ZTransactionLogsPage } from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInstallation, signIn, testApp } from '../../../test/helpers/app.ts';
import { openTestDb } from '../../../test/helpers/db.ts';
import { insertTransactions } from '../../../test/helpers/history.ts';
import type { Db } from '../../db/types.ts';

let db: Db;
let app: FastifyInstance;
let cookie: string;

beforeAll(async () => {
  db = await openTestDb();
  app = await testApp(db);
  const { installation } = await addInstallation(db, { syncId: 'TERMF01' });
  cookie = await signIn(app, 'TERMF01');
  await insertTransactions(db, installation.id, [
    { ID: 'a1', DateHeureTrt: '2025-03-31T09:00:00Z', IDTablette: 'TAB-A', Err: 1 },
    { ID: 'a2', DateHeureTrt: '2025-03-30T09:00:00Z', IDTablette: 'TAB-A' },
    { ID: 'a3', DateHeureTrt: '2025-03-29T09:00:00Z', IDTablette: 'TAB-A' },
    { ID: 'b1', DateHeureTrt: '2025-03-31T10:00:00Z', IDTablette: 'TAB-B', LibelleTablette: 'TAB-A bis' },
  ]);
});
afterAll(async () => {
  await app.close();
  await db.close();
});

async function list(query: string) {
  const res = await app.inject({ url: `${TRANSACTION_LOGS_PATH}?${query}`, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return ZTransactionLogsPage.parse(res.json());
}

describe('GET /api/transaction-logs?terminal=', () => {
  it('gives one terminal’s transactions exactly (not a search), newest first, counted', async () => {
    const page = await list('terminal=TAB-A&pageSize=2');
    expect(page.logs.map((l) => l.ID)).toEqual(['a1', 'a2']);
    expect(page.pagination.total).toBe(3);
    const next = await list(`terminal=TAB-A&pageSize=2&page=2&cursor=${page.pagination.nextCursor ?? ''}`);
    expect(next.logs.map((l) => l.ID)).toEqual(['a3']);
    const errors = await list('terminal=TAB-A&errorOnly=true');
    expect(errors.logs.map((l) => l.ID)).toEqual(['a1']);
    expect(errors.pagination.total).toBe(1);
    expect((await list('terminal=TAB-A&dateFilter=2025-03-30')).logs.map((l) => l.ID)).toEqual(['a2']);
    expect((await list('terminal=NOPE')).logs).toEqual([]);
  });

  it('refuses a terminal id too long in French', async () => {
    const res = await app.inject({
      url: `${TRANSACTION_LOGS_PATH}?terminal=${'x'.repeat(201)}`,
      headers: { cookie },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/terminal trop long/);
  });
});
