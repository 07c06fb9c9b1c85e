import {
  TERMINAL_FILTER_MAX,
  TRANSACTION_LOGS_EXPORT_PATH,
  TRANSACTION_LOGS_PATH,
  ZTransactionLogsPage,
} from '@synchro/contracts';
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
    // TAB-A's smartphone: the same terminal in Terminaux, under its other id.
    { ID: 'p1', DateHeureTrt: '2025-03-31T08:00:00Z', IDTablette: 'PHONE-A', Err: 1 },
    { ID: 'p2', DateHeureTrt: '2025-03-30T12:00:00Z', IDTablette: 'PHONE-A', RefDoc: 'DEVIS-77' },
    { ID: 'p3', DateHeureTrt: '2025-03-28T09:00:00Z', IDTablette: 'PHONE-A' },
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

describe('GET /api/transaction-logs?terminal= (once or repeated)', () => {
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

  it('gives the transactions of several ids (a terminal’s tablet and smartphone) merged newest first, counted, paged', async () => {
    const both = 'terminal=TAB-A&terminal=PHONE-A';
    const all = ['a1', 'p1', 'p2', 'a2', 'a3', 'p3'];
    const first = await list(`${both}&pageSize=4`);
    expect(first.logs.map((l) => l.ID)).toEqual(all.slice(0, 4));
    expect(first.pagination).toMatchObject({ total: 6, totalPages: 2, totalExact: true, hasNext: true });
    // 'Suivant' by cursor, a page asked by its number alone, and 'Précédent'.
    const next = await list(`${both}&pageSize=4&page=2&cursor=${first.pagination.nextCursor ?? ''}`);
    expect(next.logs.map((l) => l.ID)).toEqual(all.slice(4));
    expect((await list(`${both}&pageSize=2&page=2`)).logs.map((l) => l.ID)).toEqual(all.slice(2, 4));
    expect((await list(`${both}&pageSize=2&page=3`)).logs.map((l) => l.ID)).toEqual(all.slice(4));
    const back = await list(`${both}&pageSize=4&page=1&cursor=${next.pagination.previousCursor ?? ''}`);
    expect(back.logs.map((l) => l.ID)).toEqual(all.slice(0, 4));
    // A cursor of one id's list is not one of both ids' list.
    const single = await list('terminal=TAB-A&pageSize=2');
    const mixed = await app.inject({
      url: `${TRANSACTION_LOGS_PATH}?${both}&pageSize=2&page=2&cursor=${single.pagination.nextCursor ?? ''}`,
      headers: { cookie },
    });
    expect(mixed.statusCode).toBe(400);
    // With the other filters.
    const errors = await list(`${both}&errorOnly=true`);
    expect(errors.logs.map((l) => l.ID)).toEqual(['a1', 'p1']);
    expect(errors.pagination.total).toBe(2);
    const day = await list(`${both}&dateFilter=2025-03-30`);
    expect(day.logs.map((l) => l.ID)).toEqual(['p2', 'a2']);
    expect(day.pagination.total).toBe(2);
    const search = await list(`${both}&searchText=devis-77`);
    expect(search.logs.map((l) => l.ID)).toEqual(['p2']);
    expect(search.pagination.total).toBe(1);
    // The same id twice counts once; an id no row has adds nothing.
    expect((await list('terminal=TAB-A&terminal=TAB-A')).pagination.total).toBe(3);
    expect((await list('terminal=TAB-A&terminal=NOPE')).logs.map((l) => l.ID)).toEqual(['a1', 'a2', 'a3']);
  });

  it('exports the CSV of several ids', async () => {
    const res = await app.inject({
      url: `${TRANSACTION_LOGS_EXPORT_PATH}?terminal=TAB-A&terminal=PHONE-A`,
      headers: { cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    const ids = res.body
      .trim()
      .split(/\r?\n/)
      .slice(1)
      .map((line) => line.split(';')[8]?.replaceAll('"', ''));
    expect(ids).toEqual(['a1', 'p1', 'p2', 'a2', 'a3', 'p3']);
  });

  it('refuses more than TERMINAL_FILTER_MAX ids in French', async () => {
    const many = Array.from({ length: TERMINAL_FILTER_MAX + 1 }, (_, i) => `terminal=T${i}`).join('&');
    const res = await app.inject({ url: `${TRANSACTION_LOGS_PATH}?${many}`, headers: { cookie } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/au plus 10 identifiants de terminal/);
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
