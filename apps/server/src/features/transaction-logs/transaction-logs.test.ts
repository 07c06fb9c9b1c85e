import {
  HISTORY_LIMITS,
  HISTORY_MESSAGES,
  TRANSACTION_LOGS_PATH,
  transactionLogPath,
  ZTransactionLogDetail,
  ZTransactionLogsPage,
  type TTransactionLogsPage,
} from '@synchro/contracts';
import { describe, expect, it } from 'vitest';
import { addInstallation, FIXTURE_CONFIG, signIn, useTestApp } from '../../../test/helpers/app.ts';
import {
  insertTransactions,
  insertTransactionSeries,
  type Query,
  withQuery,
} from '../../../test/helpers/history.ts';
import { decodeLogHead, logPreview } from './service.ts';

const ctx = useTestApp();

let counter = 0;
async function fresh(configText = FIXTURE_CONFIG) {
  const syncId = `TRACE${++counter}`;
  const { installation, connectorToken } = await addInstallation(ctx.db, { syncId, configText });
  return { id: installation.id, token: connectorToken, cookie: await signIn(ctx.app, syncId) };
}

const url = withQuery;

async function list(cookie: string, query: Query = {}): Promise<TTransactionLogsPage> {
  const res = await ctx.app.inject({ url: url(TRANSACTION_LOGS_PATH, query), headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return ZTransactionLogsPage.parse(res.json());
}

const ids = (page: TTransactionLogsPage) => page.logs.map((r) => r.ID);

async function truth(installationId: string, where = 'true'): Promise<string[]> {
  const rows = await ctx.db.query<{ id: string }>(
    `SELECT tx_id AS id FROM transaction_logs WHERE installation_id = $1 AND ${where}
     ORDER BY date_heure_trt DESC, id DESC`,
    [installationId],
  );
  return rows.map((r) => r.id);
}

describe('GET /api/transaction-logs', () => {
  it('401 without a session', async () => {
    for (const path of [
      TRANSACTION_LOGS_PATH,
      transactionLogPath('T'),
      '/api/exports/transaction-logs.csv',
    ]) {
      expect((await ctx.app.inject({ url: path })).statusCode, path).toBe(401);
    }
  });

  it('{logs, pagination}: newest first, decoded texts, the log’s beginning only', async () => {
    const { id, cookie } = await fresh();
    const longLog = Array.from({ length: 30 }, (_, i) => `ligne ${i + 1} : rÃ©ception`).join('\r\n');
    await insertTransactions(ctx.db, id, [
      { ID: 'T-1', DateHeureTrt: '2025-01-10T08:00:00Z', Log: 'RÃ©ception DEVIS\r\nContrÃ´le OK' },
      {
        ID: 'T-2',
        DateHeureTrt: '2025-01-11T08:00:00Z',
        Err: 1,
        NumTransaction: '812',
        TypeDoc: 'INTERVENTION',
        RefDoc: 'XX_1',
        IDTablette: '815bf75ff86d94fa',
        LibelleTablette: 'Tablette Léa',
        Log: longLog,
      },
    ]);
    const page = await list(cookie);
    expect(ids(page)).toEqual(['T-2', 'T-1']);
    expect(page.pagination).toMatchObject({
      total: 2,
      totalPages: 1,
      totalExact: true,
      page: 1,
      pageSize: 25,
    });
    expect(page.displayTimeZone.zone).toBe('Europe/Paris');
    expect(page.logs[1]).toEqual({
      ID: 'T-1',
      Err: 0,
      DateHeureTrt: '2025-01-10T08:00:00.000Z',
      NumTransaction: '1',
      TypeDoc: 'DEVIS',
      RefDoc: '',
      IDTablette: 'abcdef0123456789',
      LibelleTablette: 'pixel 8',
      Log: 'Réception DEVIS\r\nContrôle OK',
      logTruncated: false,
    });
    const first = page.logs[0];
    expect(first).toMatchObject({
      Err: 1,
      NumTransaction: '812',
      LibelleTablette: 'Tablette Léa',
      logTruncated: true,
    });
    expect(first?.Log.split('\r\n')).toHaveLength(HISTORY_LIMITS.logPreviewLines);
    expect(first?.Log.startsWith('ligne 1 : réception\r\nligne 2')).toBe(true);
  });

  it('GET /api/transaction-logs/{ID}: the whole log ("Voir plus"); 404 for another installation, unknown, malformed', async () => {
    const a = await fresh();
    const b = await fresh();
    const log = `${'Ã©'.repeat(3000)}\r\nfin`;
    await insertTransactions(ctx.db, a.id, [{ ID: 'LONG', DateHeureTrt: '2025-01-10T08:00:00Z', Log: log }]);
    await insertTransactions(ctx.db, b.id, [
      { ID: 'B-T', DateHeureTrt: '2025-01-10T08:00:00Z', Log: 'secret' },
    ]);
    const res = await ctx.app.inject({ url: transactionLogPath('LONG'), headers: { cookie: a.cookie } });
    expect(res.statusCode).toBe(200);
    const detail = ZTransactionLogDetail.parse(res.json());
    expect(detail.Log).toBe(`${'é'.repeat(3000)}\r\nfin`);
    expect(detail.logTruncated).toBe(false);
    const row = (await list(a.cookie)).logs[0];
    expect(row?.Log).toBe('é'.repeat(HISTORY_LIMITS.logPreviewChars));
    expect(row?.logTruncated).toBe(true);
    for (const target of ['B-T', 'NOPE', 'x'.repeat(150), 'a\u0000b']) {
      const r = await ctx.app.inject({ url: transactionLogPath(target), headers: { cookie: a.cookie } });
      expect(r.statusCode, target).toBe(404);
      expect(r.json().message).toBe(HISTORY_MESSAGES.transactionNotFound);
    }
  });

  it('errors only (Err 1), one day of the zone, a search on document type, terminal and document number', async () => {
    const { id, cookie } = await fresh();
    await insertTransactions(ctx.db, id, [
      { ID: 'A', DateHeureTrt: '2025-03-29T23:00:00Z', TypeDoc: 'DEVIS', IDTablette: 'aaa111', Err: 1 },
      {
        ID: 'B',
        DateHeureTrt: '2025-03-30T21:59:59Z',
        TypeDoc: 'STOCK',
        IDTablette: 'bbb222',
        NumTransaction: '4242',
      },
      {
        ID: 'C',
        DateHeureTrt: '2025-03-30T22:00:00Z',
        TypeDoc: 'ARTICLES',
        RefDoc: 'XX_50%',
        LibelleTablette: 'Tablette Élodie',
      },
      { ID: 'D', DateHeureTrt: '2025-03-29T22:59:59Z', TypeDoc: 'CLIENTS', Err: 1, IDTablette: 'ddd_44' },
    ]);
    expect(ids(await list(cookie, { errorOnly: true }))).toEqual(['A', 'D']);
    expect(ids(await list(cookie, { dateFilter: '2025-03-30' }))).toEqual(['B', 'A']);
    expect(ids(await list(cookie, { dateFilter: '2025-03-30', errorOnly: true }))).toEqual(['A']);
    expect(ids(await list(cookie, { searchText: 'stock' }))).toEqual(['B']);
    expect(ids(await list(cookie, { searchText: 'AAA1' }))).toEqual(['A']);
    expect(ids(await list(cookie, { searchText: '4242' }))).toEqual(['B']);
    expect(ids(await list(cookie, { searchText: '50%' }))).toEqual(['C']);
    expect(ids(await list(cookie, { searchText: 'elodie' }))).toEqual(['C']);
    expect(ids(await list(cookie, { searchText: '_' }))).toEqual(['C', 'D']);
    expect(ids(await list(cookie, { searchText: 'd', errorOnly: true, dateFilter: '2025-03-29' }))).toEqual([
      'D',
    ]);
    const bad = await ctx.app.inject({
      url: url(TRANSACTION_LOGS_PATH, { dateFilter: '30/03/2025' }),
      headers: { cookie },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('dateFilter');
  });

  it('paging: Suivant and Précédent by cursor, the last page, a jump, a tampered cursor', async () => {
    const { id, cookie } = await fresh();
    await insertTransactionSeries(ctx.db, id, {
      prefix: 'S',
      count: 6000,
      newest: '2025-06-01T12:00:00Z',
      stepMinutes: 13,
      errorEvery: 3,
    });
    const all = await truth(id);
    let page = await list(cookie, { pageSize: 100 });
    const seen = ids(page);
    while (page.pagination.hasNext) {
      page = await list(cookie, {
        pageSize: 100,
        page: page.pagination.page + 1,
        cursor: page.pagination.nextCursor ?? '',
      });
      seen.push(...ids(page));
    }
    expect(seen).toEqual(all);
    const back = await list(cookie, {
      pageSize: 100,
      page: 59,
      cursor: page.pagination.previousCursor ?? '',
    });
    expect(ids(back)).toEqual(all.slice(5800, 5900));
    for (const n of [240, 120, 100, 1]) {
      expect(ids(await list(cookie, { page: n })), `page ${n}`).toEqual(all.slice((n - 1) * 25, n * 25));
    }
    const errors = await truth(id, 'err = 1');
    expect((await list(cookie, { errorOnly: true })).pagination.total).toBe(errors.length);
    expect(ids(await list(cookie, { errorOnly: true, page: 40 }))).toEqual(errors.slice(975, 1000));
    const cursor = (await list(cookie)).pagination.nextCursor ?? '';
    const res = await ctx.app.inject({
      url: url(TRANSACTION_LOGS_PATH, { page: 2, cursor: `x${cursor}` }),
      headers: { cookie },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: HISTORY_MESSAGES.cursorInvalid, code: 'INVALID_CURSOR' });
    // A cursor given with another page than its own.
    const res2 = await ctx.app.inject({
      url: url(TRANSACTION_LOGS_PATH, {
        pageSize: 100,
        page: 2,
        cursor: page.pagination.previousCursor ?? '',
      }),
      headers: { cookie },
    });
    expect(res2.statusCode).toBe(400);
  });
});

describe('GET /api/exports/transaction-logs.csv', () => {
  it('BOM, headers, whole decoded logs quoted, injection neutralised, times with offset, filters', async () => {
    const { id, cookie } = await fresh();
    await insertTransactions(ctx.db, id, [
      {
        ID: 'X1',
        DateHeureTrt: '2025-01-15T08:00:00Z',
        Err: 1,
        TypeDoc: 'DEVIS',
        LibelleTablette: '=cmd|x',
        Log: 'DÃ©but\r\n"fin"',
      },
      {
        ID: 'X2',
        DateHeureTrt: '2025-08-15T08:00:00Z',
        NumTransaction: '-5',
        IDTablette: '@abc',
        RefDoc: 'R;1',
      },
    ]);
    const res = await ctx.app.inject({ url: '/api/exports/transaction-logs.csv', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="trace-transactions-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(res.body.charCodeAt(0)).toBe(0xfeff);
    const lines = res.body.slice(1).split('\r\n');
    expect(lines[0]).toBe(
      `"État";"Date de transaction";"Décalage UTC";"N° Transaction";"Etape Sync";"ID Terminal";"Terminal";"Référence document";"ID";"Contenu du log"`,
    );
    expect(lines[1]).toBe(
      `"OK";"15/08/2025 10:00:00";"UTC+02:00";"'-5";"DEVIS";"'@abc";"pixel 8";"R;1";"X2";""`,
    );
    expect(lines[2]).toBe(
      `"Erreur";"15/01/2025 09:00:00";"UTC+01:00";"1";"DEVIS";"abcdef0123456789";"'=cmd|x";"";"X1";"Début`,
    );
    expect(lines[3]).toBe(`""fin"""`);
    const errors = await ctx.app.inject({
      url: '/api/exports/transaction-logs.csv?errorOnly=true&dateFilter=2025-01-15',
      headers: { cookie },
    });
    expect(errors.body.split('\r\n')).toHaveLength(4);
    const bad = await ctx.app.inject({
      url: '/api/exports/transaction-logs.csv?searchText=' + 'x'.repeat(200),
      headers: { cookie },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('log preview', () => {
  it('cuts after 10 lines or 500 characters', () => {
    expect(logPreview('a\r\nb', false)).toEqual({ Log: 'a\r\nb', logTruncated: false });
    const eleven = Array.from({ length: 11 }, (_, i) => `l${i}`).join('\n');
    expect(logPreview(eleven, false)).toEqual({
      Log: eleven.split('\n').slice(0, 10).join('\n'),
      logTruncated: true,
    });
    expect(logPreview(`${'x'.repeat(600)}`, false).Log).toHaveLength(500);
    expect(logPreview('ten\n'.repeat(10), false).logTruncated).toBe(false);
    expect(logPreview('short', true).logTruncated).toBe(true);
  });

  it('a stored head cut inside a character’s bytes still decodes', () => {
    // "é" is stored as "Ã©"; a cut after "Ã" leaves a lone lead byte.
    expect(decodeLogHead('rÃ©ussi rÃ', true)).toBe('réussi r');
    expect(decodeLogHead('rÃ©ussi', false)).toBe('réussi');
    expect(decodeLogHead('plain', true)).toBe('plain');
  });
});
