import {
  HISTORY_MESSAGES,
  SYNC_HISTORY_PATH,
  syncHistoryRecordPath,
  TRANSACTION_LOGS_PATH,
  ZSyncHistoryPage,
  ZSyncHistoryRow,
  ZSyncHistoryXml,
  ZSyncHistoryXmlError,
  ZSyncHistoryXmlSaved,
  ZTransactionLogsPage,
  type TSyncHistoryPage,
} from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { addInstallation, FIXTURE_CONFIG, signIn, testApp, useTestApp } from '../../../test/helpers/app.ts';
import {
  insertRecords,
  insertRecordSeries,
  SIMPLE_ENREG,
  type Query,
  withQuery,
} from '../../../test/helpers/history.ts';

/** The sanitised real record (byte order mark, CRLF), as config-xml's tests keep it. */
const REAL_RECORD = join(
  import.meta.dirname,
  '../../../../../packages/config-xml/test/fixtures/enreg-devis.xml',
);

const ctx = useTestApp();

let counter = 0;
async function fresh(configText = FIXTURE_CONFIG) {
  const syncId = `HIST${++counter}`;
  const { installation, connectorToken } = await addInstallation(ctx.db, { syncId, configText });
  return { id: installation.id, syncId, token: connectorToken, cookie: await signIn(ctx.app, syncId) };
}

const url = withQuery;

async function list(cookie: string, query: Query = {}): Promise<TSyncHistoryPage> {
  const res = await ctx.app.inject({ url: url(SYNC_HISTORY_PATH, query), headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return ZSyncHistoryPage.parse(res.json());
}

const ids = (page: TSyncHistoryPage) => page.data.map((r) => r.IDInterne);

/** The ids the database gives for the same filters, newest first (the truth the pages must match). */
async function truth(installationId: string, where = 'true'): Promise<string[]> {
  const rows = await ctx.db.query<{ id: string }>(
    `SELECT id_interne AS id FROM import_records WHERE installation_id = $1 AND ${where}
     ORDER BY date_heure DESC, id DESC`,
    [installationId],
  );
  return rows.map((r) => r.id);
}

async function stored(installationId: string, idInterne: string) {
  const [row] = await ctx.db.query<{ etat: number; enreg: string; updated_at: Date }>(
    'SELECT etat, enreg, updated_at FROM import_records WHERE installation_id = $1 AND id_interne = $2',
    [installationId, idInterne],
  );
  return row;
}

async function audits(installationId: string, action: string) {
  return ctx.db.query<{ details: Record<string, unknown>; actor: string }>(
    'SELECT details, actor FROM audit_log WHERE installation_id = $1 AND action = $2 ORDER BY id',
    [installationId, action],
  );
}

describe('GET /api/sync-history: the list', () => {
  it('says how long records and transactions are kept: null unless HISTORY_RETENTION_DAYS is set, then its days', async () => {
    const { syncId, cookie } = await fresh();
    expect((await list(cookie)).retentionDays).toBeNull();
    const trace = async (app: FastifyInstance, cookie: string) => {
      const res = await app.inject({ url: TRANSACTION_LOGS_PATH, headers: { cookie } });
      expect(res.statusCode, res.body).toBe(200);
      return ZTransactionLogsPage.parse(res.json()).retentionDays;
    };
    expect(await trace(ctx.app, cookie)).toBeNull();
    const kept30 = await testApp(ctx.db, { historyRetentionDays: 30 });
    try {
      const cookie30 = await signIn(kept30, syncId);
      const res = await kept30.inject({ url: SYNC_HISTORY_PATH, headers: { cookie: cookie30 } });
      expect(ZSyncHistoryPage.parse(res.json()).retentionDays).toBe(30);
      expect(await trace(kept30, cookie30)).toBe(30);
    } finally {
      await kept30.close();
    }
  });

  it('401 without a session, on every route', async () => {
    for (const [method, path] of [
      ['GET', SYNC_HISTORY_PATH],
      ['PATCH', syncHistoryRecordPath('X', 'status')],
      ['GET', syncHistoryRecordPath('X', 'xml')],
      ['PUT', syncHistoryRecordPath('X', 'xml')],
      ['GET', syncHistoryRecordPath('X', 'file')],
      ['GET', syncHistoryRecordPath('X', 'log')],
      ['GET', '/api/exports/sync-history.csv'],
    ] as const) {
      const res = await ctx.app.inject({ method, url: path, ...(method === 'GET' ? {} : { payload: {} }) });
      expect(res.statusCode, `${method} ${path}`).toBe(401);
    }
  });

  it('newest first, the seven fields and hasFile/hasLog, never the XML, the log or the file', async () => {
    const { id, cookie } = await fresh();
    await insertRecords(ctx.db, id, [
      { IDInterne: 'OLD', DateHeure: '2025-01-10T08:00:00Z', Log: 'Import rÃ©ussi' },
      {
        IDInterne: 'NEW',
        DateHeure: '2025-01-12T08:00:00Z',
        Etat: -1,
        TypeEnreg: 'GED',
        RefDoc: 'GED_1',
        NumLigne: 0,
        TypeElement: 'Modification',
        file: { name: 'a.pdf', content: Buffer.from('%PDF') },
      },
      { IDInterne: 'MID', DateHeure: '2025-01-11T08:00:00Z', Etat: 0 },
    ]);
    const page = await list(cookie);
    expect(ids(page)).toEqual(['NEW', 'MID', 'OLD']);
    expect(page.data[0]).toEqual({
      IDInterne: 'NEW',
      Etat: -1,
      TypeEnreg: 'GED',
      RefDoc: 'GED_1',
      DateHeure: '2025-01-12T08:00:00.000Z',
      NumLigne: 0,
      TypeElement: 'Modification',
      hasFile: true,
      hasLog: false,
    });
    expect(page.data[2]).toMatchObject({ hasLog: true, hasFile: false });
    for (const row of page.data)
      expect(Object.keys(row).sort()).toEqual(Object.keys(ZSyncHistoryRow.shape).sort());
    expect(page).toMatchObject({
      total: 3,
      totalPages: 1,
      totalExact: true,
      page: 1,
      pageSize: 25,
      hasPrevious: false,
      hasNext: false,
      nextCursor: null,
      previousCursor: null,
    });
    expect(page.displayTimeZone.zone).toBe('Europe/Paris');
    expect([60, 120]).toContain(page.displayTimeZone.offsetMinutes);
  });

  it('shows only the signed-in installation’s records', async () => {
    const a = await fresh();
    const b = await fresh();
    await insertRecords(ctx.db, a.id, [{ IDInterne: 'MINE', DateHeure: '2025-01-10T08:00:00Z' }]);
    await insertRecords(ctx.db, b.id, [{ IDInterne: 'THEIRS', DateHeure: '2025-01-10T08:00:00Z' }]);
    expect(ids(await list(a.cookie))).toEqual(['MINE']);
    expect(ids(await list(a.cookie, { search: 'THEIRS' }))).toEqual([]);
  });

  it('caps the page size at 100; invalid paging values are a French 400', async () => {
    const { id, cookie } = await fresh();
    await insertRecordSeries(ctx.db, id, {
      prefix: 'C',
      count: 130,
      newest: '2025-06-01T12:00:00Z',
      stepMinutes: 7,
    });
    const page = await list(cookie, { pageSize: 5000 });
    expect(page.pageSize).toBe(100);
    expect(page.data).toHaveLength(100);
    expect(page.totalPages).toBe(2);
    for (const bad of [
      { page: 0 },
      { page: 'x' },
      { pageSize: -3 },
      { errorOnly: 'peut-être' },
      { date: '31/12/2025' },
    ]) {
      const res = await ctx.app.inject({ url: url(SYNC_HISTORY_PATH, bad), headers: { cookie } });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().message).toMatch(/^Requête invalide\. /);
    }
  });
});

describe('paging', () => {
  let inst: Awaited<ReturnType<typeof fresh>>;
  let all: string[];

  beforeAll(async () => {
    inst = await fresh();
    // 9 000 rows over six months (one every 29 minutes), every other one in error, and 5 rows
    // sharing one time: pages far from both ends start from the day counters.
    await insertRecordSeries(ctx.db, inst.id, {
      prefix: 'P',
      count: 9000,
      newest: '2025-06-01T12:00:00Z',
      stepMinutes: 29,
      errorEvery: 2,
    });
    await insertRecords(
      ctx.db,
      inst.id,
      ['T1', 'T2', 'T3', 'T4', 'T5'].map((IDInterne) => ({ IDInterne, DateHeure: '2025-05-20T10:00:00Z' })),
    );
    all = await truth(inst.id);
    expect(all).toHaveLength(9005);
  });

  it('Suivant to the end and Précédent back to the start follow the cursors, page by page', async () => {
    const seen: string[] = [];
    let page = await list(inst.cookie, { pageSize: 100 });
    expect(page.totalPages).toBe(91);
    seen.push(...ids(page));
    while (page.hasNext) {
      expect(page.nextCursor).not.toBeNull();
      page = await list(inst.cookie, { pageSize: 100, page: page.page + 1, cursor: page.nextCursor ?? '' });
      seen.push(...ids(page));
    }
    expect(page.page).toBe(91);
    expect(seen).toEqual(all);

    const back: string[][] = [ids(page)];
    while (page.hasPrevious) {
      page = await list(inst.cookie, {
        pageSize: 100,
        page: page.page - 1,
        cursor: page.previousCursor ?? '',
      });
      back.unshift(ids(page));
    }
    expect(page.page).toBe(1);
    expect(back.flat()).toEqual(all);
  });

  it('any page by its number: first, last (read from the far end), the middle (day counters), beyond', async () => {
    for (const n of [1, 2, 40, 81, 100, 150, 200, 250, 300, 355, 360, 361]) {
      const page = await list(inst.cookie, { page: n });
      expect(ids(page), `page ${n}`).toEqual(all.slice((n - 1) * 25, n * 25));
      expect(page.hasNext).toBe(n < 361);
      expect(page.hasPrevious).toBe(n > 1);
    }
    expect((await list(inst.cookie, { page: 361 })).data).toHaveLength(5);
    const beyond = await list(inst.cookie, { page: 500 });
    expect(beyond).toMatchObject({
      data: [],
      total: 9005,
      totalPages: 361,
      hasNext: false,
      hasPrevious: true,
    });
  });

  it('errors only: counted by the counters, every page the right one', async () => {
    const errors = await truth(inst.id, 'etat = -1');
    const first = await list(inst.cookie, { errorOnly: true, pageSize: 10 });
    expect(first.total).toBe(errors.length);
    for (const n of [1, 5, 100, 210, 226, 300, 449, 450, 451]) {
      const page = await list(inst.cookie, { errorOnly: true, pageSize: 10, page: n });
      expect(ids(page), `page ${n}`).toEqual(errors.slice((n - 1) * 10, n * 10));
    }
  });

  it('a page jumped to leads on with its cursors', async () => {
    const page = await list(inst.cookie, { page: 60 });
    const next = await list(inst.cookie, { page: 61, cursor: page.nextCursor ?? '' });
    const previous = await list(inst.cookie, { page: 59, cursor: page.previousCursor ?? '' });
    expect(ids(next)).toEqual(all.slice(60 * 25, 61 * 25));
    expect(ids(previous)).toEqual(all.slice(58 * 25, 59 * 25));
  });

  it('Précédent to page 1 reads the newest rows again', async () => {
    const second = await list(inst.cookie, { page: 2 });
    await insertRecords(ctx.db, inst.id, [{ IDInterne: 'ARRIVED', DateHeure: '2025-06-02T00:00:00Z' }]);
    const first = await list(inst.cookie, { page: 1, cursor: second.previousCursor ?? '' });
    expect(ids(first)[0]).toBe('ARRIVED');
    await ctx.db.query(`DELETE FROM import_records WHERE installation_id = $1 AND id_interne = 'ARRIVED'`, [
      inst.id,
    ]);
  });

  it('a tampered, foreign or stale cursor is a French 400 and nothing else', async () => {
    const page = await list(inst.cookie, { pageSize: 10 });
    const cursor = page.nextCursor ?? '';
    const [body, signature] = cursor.split('.') as [string, string];
    const decoded = Buffer.from(body, 'base64url').toString();
    const forged = Buffer.from(decoded.replace(/"\d+"\]$/, '"1"]')).toString('base64url');
    const other = await fresh();
    await insertRecordSeries(ctx.db, other.id, {
      prefix: 'O',
      count: 30,
      newest: '2025-06-01T12:00:00Z',
      stepMinutes: 5,
    });
    const foreign = (await list(other.cookie, { pageSize: 10 })).nextCursor ?? '';
    const cases: [string, Query, string, string][] = [
      [
        'signature changed',
        { page: 2, cursor: `${body}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}` },
        'INVALID_CURSOR',
        inst.cookie,
      ],
      [
        'body changed, old signature',
        { page: 2, cursor: `${forged}.${signature}` },
        'INVALID_CURSOR',
        inst.cookie,
      ],
      ['garbage', { page: 2, cursor: 'abc' }, 'INVALID_CURSOR', inst.cookie],
      ['three parts', { page: 2, cursor: `${cursor}.x` }, 'INVALID_CURSOR', inst.cookie],
      ['too long', { page: 2, cursor: 'A'.repeat(600) }, 'VALIDATION', inst.cookie],
      ['other page', { page: 3, cursor }, 'STALE_CURSOR', inst.cookie],
      ['other filters', { page: 2, cursor, errorOnly: true }, 'STALE_CURSOR', inst.cookie],
      ['other search', { page: 2, cursor, search: 'p' }, 'STALE_CURSOR', inst.cookie],
      ['other installation', { page: 2, cursor: foreign }, 'STALE_CURSOR', inst.cookie],
      ['used by the other installation', { page: 2, cursor }, 'STALE_CURSOR', other.cookie],
    ];
    for (const [name, query, code, cookie] of cases) {
      const res = await ctx.app.inject({
        url: url(SYNC_HISTORY_PATH, { pageSize: 10, ...query }),
        headers: { cookie },
      });
      expect(res.statusCode, name).toBe(400);
      expect(res.json().code, name).toBe(code);
      expect(res.json().message, name).toMatch(/curseur|Requête invalide/i);
    }
    expect(HISTORY_MESSAGES.cursorInvalid).toContain('revenez à la première page');
  });
});

describe('filters', () => {
  it('date: the calendar day of the display zone, winter, summer and both clock changes', async () => {
    const { id, cookie } = await fresh();
    await insertRecords(ctx.db, id, [
      { IDInterne: 'SAT-LAST', DateHeure: '2025-03-29T22:59:59.999Z' }, // 23:59:59 on the 29th, Paris
      { IDInterne: 'SUN-FIRST', DateHeure: '2025-03-29T23:00:00Z' }, // 00:00 on the 30th (CET)
      { IDInterne: 'SUN-LAST', DateHeure: '2025-03-30T21:59:59Z' }, // 23:59:59 on the 30th (CEST)
      { IDInterne: 'MON-FIRST', DateHeure: '2025-03-30T22:00:00Z' },
      { IDInterne: 'OCT-FIRST', DateHeure: '2025-10-25T22:00:00Z' }, // 00:00 on 26/10 (CEST)
      { IDInterne: 'OCT-REPEATED', DateHeure: '2025-10-26T01:30:00Z' }, // the second 02:30
      { IDInterne: 'OCT-LAST', DateHeure: '2025-10-26T22:59:59Z' }, // 23:59:59 on 26/10 (CET)
      { IDInterne: 'OCT-NEXT', DateHeure: '2025-10-26T23:00:00Z' },
    ]);
    expect(ids(await list(cookie, { date: '2025-03-30' }))).toEqual(['SUN-LAST', 'SUN-FIRST']);
    // The spec's browser sends the day's local noon as an ISO instant.
    expect(ids(await list(cookie, { date: '2025-03-30T10:00:00.000Z' }))).toEqual(['SUN-LAST', 'SUN-FIRST']);
    expect(ids(await list(cookie, { date: '2025-03-29' }))).toEqual(['SAT-LAST']);
    expect(ids(await list(cookie, { date: '2025-10-26' }))).toEqual([
      'OCT-LAST',
      'OCT-REPEATED',
      'OCT-FIRST',
    ]);
    const day = await list(cookie, { date: '2025-10-26' });
    expect(day).toMatchObject({ total: 3, totalExact: true });
  });

  it('date in the zone chosen in Planification (New York): the same instants fall on other days', async () => {
    const config = FIXTURE_CONFIG.replace(
      '<FuseauHoraire>Europe/Paris</FuseauHoraire>',
      '<FuseauHoraire>America/New_York</FuseauHoraire>',
    );
    const { id, cookie } = await fresh(config);
    await insertRecords(ctx.db, id, [
      { IDInterne: 'A', DateHeure: '2025-03-09T04:59:59Z' }, // 23:59:59 on 08/03 EST
      { IDInterne: 'B', DateHeure: '2025-03-09T05:00:00Z' }, // 00:00 on 09/03 EST
      { IDInterne: 'C', DateHeure: '2025-03-10T03:59:59Z' }, // 23:59:59 on 09/03 EDT (a 23-hour day)
      { IDInterne: 'D', DateHeure: '2025-03-10T04:00:00Z' },
    ]);
    const page = await list(cookie, { date: '2025-03-09' });
    expect(ids(page)).toEqual(['C', 'B']);
    expect(page.displayTimeZone.zone).toBe('America/New_York');
    // Local noon of a New York browser.
    expect(ids(await list(cookie, { date: '2025-03-09T16:00:00.000Z' }))).toEqual(['C', 'B']);
  });

  it('search: reference, record type and processing type; case and accents ignored; wildcards literal', async () => {
    const { id, cookie } = await fresh();
    await insertRecords(ctx.db, id, [
      {
        IDInterne: 'R1',
        DateHeure: '2025-01-01T10:00:00Z',
        RefDoc: 'XX_50%_OFF',
        TypeEnreg: 'DocumentDEVIS',
      },
      { IDInterne: 'R2', DateHeure: '2025-01-01T11:00:00Z', RefDoc: 'XX_50ABOFF', TypeEnreg: 'Intervention' },
      {
        IDInterne: 'R3',
        DateHeure: '2025-01-01T12:00:00Z',
        RefDoc: 'C:\\dossier\\a_b',
        TypeElement: 'Création',
      },
      {
        IDInterne: 'R4',
        DateHeure: '2025-01-01T13:00:00Z',
        RefDoc: 'ŒUVRE-Été',
        TypeEnreg: 'TiersCP',
        TypeElement: 'Suppression',
      },
      { IDInterne: 'R5', DateHeure: '2025-01-01T14:00:00Z', RefDoc: 'axb', TypeElement: 'Modification' },
    ]);
    const found = async (search: string) => ids(await list(cookie, { search })).sort();
    expect(await found('50%')).toEqual(['R1']);
    expect(await found('50%_')).toEqual(['R1']);
    expect(await found('%')).toEqual(['R1']);
    expect(await found('_')).toEqual(['R1', 'R2', 'R3']);
    expect(await found('a_b')).toEqual(['R3']);
    expect(await found('\\dossier')).toEqual(['R3']);
    expect(await found('intervention')).toEqual(['R2']);
    expect(await found('CREATION')).toEqual(['R1', 'R2', 'R3']);
    expect(await found('création')).toEqual(['R1', 'R2', 'R3']);
    expect(await found('oeuvre-ete')).toEqual(['R4']);
    expect(await found('Œuvre')).toEqual(['R4']);
    expect(await found('tierscp')).toEqual(['R4']);
    expect(await found('suppr')).toEqual(['R4']);
    expect(await found('x')).toEqual(['R1', 'R2', 'R5']);
    // A term never spans two fields: the reference's end and the type's start.
    expect(await found('offdocument')).toEqual([]);
    const page = await list(cookie, { search: 'xx_50' });
    expect(page).toMatchObject({ total: 2, totalExact: true, totalPages: 1 });
  });

  it('errors only, one day and a search together; a new filter starts at page 1', async () => {
    const { id, cookie } = await fresh();
    await insertRecords(ctx.db, id, [
      { IDInterne: 'E-DAY-DEVIS', DateHeure: '2025-02-03T09:00:00Z', Etat: -1, TypeEnreg: 'DocumentDEVIS' },
      { IDInterne: 'E-DAY-GED', DateHeure: '2025-02-03T10:00:00Z', Etat: -1, TypeEnreg: 'GED' },
      { IDInterne: 'OK-DAY-DEVIS', DateHeure: '2025-02-03T11:00:00Z', Etat: 1, TypeEnreg: 'DocumentDEVIS' },
      { IDInterne: 'E-OTHER-DEVIS', DateHeure: '2025-02-04T11:00:00Z', Etat: -1, TypeEnreg: 'DocumentDEVIS' },
    ]);
    const q = { errorOnly: true, date: '2025-02-03', search: 'devis' };
    expect(ids(await list(cookie, q))).toEqual(['E-DAY-DEVIS']);
    expect(ids(await list(cookie, { errorOnly: true, date: '2025-02-03' }))).toEqual([
      'E-DAY-GED',
      'E-DAY-DEVIS',
    ]);
    expect(ids(await list(cookie, { errorOnly: true, search: 'devis' }))).toEqual([
      'E-OTHER-DEVIS',
      'E-DAY-DEVIS',
    ]);
    expect(ids(await list(cookie, { date: '2025-02-03', search: 'devis' }))).toEqual([
      'OK-DAY-DEVIS',
      'E-DAY-DEVIS',
    ]);
  });

  it('a search matching more than 1 000 rows is counted up to that bound (totalExact false)', async () => {
    const { id, cookie } = await fresh();
    await insertRecordSeries(ctx.db, id, {
      prefix: 'MANY',
      count: 1_050,
      newest: '2025-06-01T12:00:00Z',
      stepMinutes: 1,
    });
    const page = await list(cookie, { search: 'devis' });
    expect(page).toMatchObject({ total: 1_000, totalExact: false, totalPages: 40, hasNext: true });
    const unfiltered = await list(cookie);
    expect(unfiltered).toMatchObject({ total: 1_050, totalExact: true });
  });
});

describe('PATCH /api/sync-history/{id}/status', () => {
  const patch = (cookie: string, id: string, payload: Record<string, unknown>) =>
    ctx.app.inject({
      method: 'PATCH',
      url: syncHistoryRecordPath(id, 'status'),
      headers: { cookie },
      payload,
    });
  const queue = async (token: string) => {
    const res = await ctx.app.inject({
      url: '/api/connector/v1/import-records/queue',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { records: { IDInterne: string }[] }).records.map((r) => r.IDInterne);
  };

  it('cycles 0 → 1 → −1 → 0: 0 puts the record back in the import queue, 1 and −1 take it out; audited', async () => {
    const { id, cookie, token } = await fresh();
    await insertRecords(ctx.db, id, [
      { IDInterne: 'Q1', DateHeure: '2025-01-01T10:00:00Z', Etat: 0 },
      { IDInterne: 'Q2', DateHeure: '2025-01-01T11:00:00Z', Etat: 1 },
    ]);
    expect(await queue(token)).toEqual(['Q1']);

    let res = await patch(cookie, 'Q1', { newStatus: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(ZSyncHistoryRow.parse(res.json())).toMatchObject({ IDInterne: 'Q1', Etat: 1 });
    expect(await queue(token)).toEqual([]);

    res = await patch(cookie, 'Q1', { newStatus: -1 });
    expect(res.json()).toMatchObject({ Etat: -1 });
    expect(await queue(token)).toEqual([]);
    expect((await list(cookie, { errorOnly: true })).total).toBe(1);

    res = await patch(cookie, 'Q1', { newStatus: '0' });
    expect(res.json()).toMatchObject({ Etat: 0 });
    expect(await queue(token)).toEqual(['Q1']);
    expect((await list(cookie, { errorOnly: true })).total).toBe(0);

    res = await patch(cookie, 'Q2', { newStatus: 0 });
    expect(await queue(token)).toEqual(['Q1', 'Q2']);

    const entries = await audits(id, 'history.status');
    expect(entries.map((e) => e.details)).toEqual([
      { IDInterne: 'Q1', from: 0, to: 1, queued: false },
      { IDInterne: 'Q1', from: 1, to: -1, queued: false },
      { IDInterne: 'Q1', from: -1, to: 0, queued: true },
      { IDInterne: 'Q2', from: 1, to: 0, queued: true },
    ]);
    expect(entries.every((e) => e.actor === 'user')).toBe(true);

    // The same value again changes and audits nothing.
    const before = await stored(id, 'Q2');
    res = await patch(cookie, 'Q2', { newStatus: 0 });
    expect(res.statusCode).toBe(200);
    expect((await stored(id, 'Q2'))?.updated_at).toEqual(before?.updated_at);
    expect(await audits(id, 'history.status')).toHaveLength(4);
  });

  it('refuses another value in French, changing nothing', async () => {
    const { id, cookie } = await fresh();
    await insertRecords(ctx.db, id, [{ IDInterne: 'V', DateHeure: '2025-01-01T10:00:00Z', Etat: 1 }]);
    for (const payload of [{ newStatus: 2 }, { newStatus: 'oui' }, {}, { newStatus: null }]) {
      const res = await patch(cookie, 'V', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toContain('newStatus');
    }
    expect((await stored(id, 'V'))?.etat).toBe(1);
  });

  it('another installation’s id, an unknown id and a malformed one: 404, nothing changed', async () => {
    const a = await fresh();
    const b = await fresh();
    await insertRecords(ctx.db, b.id, [{ IDInterne: 'B-ONLY', DateHeure: '2025-01-01T10:00:00Z', Etat: 1 }]);
    for (const target of ['B-ONLY', 'UNKNOWN', 'x'.repeat(101), 'bad\u0001id', ' ']) {
      const res = await patch(a.cookie, target, { newStatus: 0 });
      expect(res.statusCode, target).toBe(404);
      expect(res.json().message).toBe(HISTORY_MESSAGES.recordNotFound);
    }
    expect((await stored(b.id, 'B-ONLY'))?.etat).toBe(1);
    expect(await audits(a.id, 'history.status')).toEqual([]);
  });

  it('an id with slashes, spaces and accents is reached through its encoded path', async () => {
    const { id, cookie } = await fresh();
    await insertRecords(ctx.db, id, [{ IDInterne: 'A/B é?#%', DateHeure: '2025-01-01T10:00:00Z', Etat: 1 }]);
    const res = await patch(cookie, 'A/B é?#%', { newStatus: -1 });
    expect(res.statusCode, res.body).toBe(200);
    expect((await stored(id, 'A/B é?#%'))?.etat).toBe(-1);
  });
});

describe('GET and PUT /api/sync-history/{id}/xml', () => {
  const getXml = (cookie: string, id: string) =>
    ctx.app.inject({ url: syncHistoryRecordPath(id, 'xml'), headers: { cookie } });
  const putXml = (cookie: string, id: string, payload: Record<string, unknown>) =>
    ctx.app.inject({ method: 'PUT', url: syncHistoryRecordPath(id, 'xml'), headers: { cookie }, payload });

  // The record as the connector stores it: UTF-8 bytes read as Latin-1 (Léa → LÃ©a).
  const STORED = `<SyncNuxiDev><Table>ged</Table><Enregistrement><Nom>LÃ©a &amp; Fils</Nom><NomDocument>Devis signÃ©.pdf</NomDocument><BinaireDocument>JVBERi0xLjQK</BinaireDocument></Enregistrement></SyncNuxiDev>`;

  it('GET: decoded for display, with the attached documents’ names and sizes', async () => {
    const { id, cookie } = await fresh();
    await insertRecords(ctx.db, id, [{ IDInterne: 'X1', DateHeure: '2025-01-01T10:00:00Z', Enreg: STORED }]);
    const res = await getXml(cookie, 'X1');
    expect(res.statusCode, res.body).toBe(200);
    const view = ZSyncHistoryXml.parse(res.json());
    expect(view.enreg).toContain('<Nom>Léa &amp; Fils</Nom>');
    expect(view.enreg).toContain('Devis signé.pdf');
    expect(view.sizeBytes).toBe(Buffer.byteLength(view.enreg));
    expect(view.attachments).toEqual([
      {
        name: 'Devis signé.pdf',
        size: 9,
        nameElement: 'NomDocument',
        contentElement: 'BinaireDocument',
        path: 'SyncNuxiDev/Enregistrement',
      },
    ]);
  });

  it('PUT: stored back in the connector’s convention (an unchanged text round-trips byte for byte), audited', async () => {
    const { id, cookie } = await fresh();
    await insertRecords(ctx.db, id, [{ IDInterne: 'X2', DateHeure: '2025-01-01T10:00:00Z', Enreg: STORED }]);
    const shown = ZSyncHistoryXml.parse((await getXml(cookie, 'X2')).json()).enreg;

    let res = await putXml(cookie, 'X2', { xml: shown });
    expect(res.statusCode, res.body).toBe(200);
    expect((await stored(id, 'X2'))?.enreg).toBe(STORED);
    expect(await audits(id, 'history.xml')).toEqual([]); // nothing changed, nothing written

    const edited = shown.replace('Léa', 'Zoé');
    res = await putXml(cookie, 'X2', { xml: edited });
    expect(res.statusCode, res.body).toBe(200);
    expect(ZSyncHistoryXmlSaved.parse(res.json())).toEqual({
      message: HISTORY_MESSAGES.xmlSaved,
      IDInterne: 'X2',
      sizeBytes: Buffer.byteLength(edited),
    });
    expect((await stored(id, 'X2'))?.enreg).toBe(STORED.replace('LÃ©a', 'ZoÃ©'));
    expect(ZSyncHistoryXml.parse((await getXml(cookie, 'X2')).json()).enreg).toBe(edited);
    const entries = await audits(id, 'history.xml');
    expect(entries.map((e) => e.details)).toEqual([
      { IDInterne: 'X2', sizeBytes: Buffer.byteLength(edited) },
    ]);
  });

  it('a record starting with a byte order mark (the real one) keeps it through GET and an unchanged PUT', async () => {
    const { id, cookie } = await fresh();
    const real = readFileSync(REAL_RECORD, 'utf8');
    expect(real.charCodeAt(0)).toBe(0xfeff);
    await insertRecords(ctx.db, id, [{ IDInterne: 'BOM', DateHeure: '2025-01-01T10:00:00Z', Enreg: real }]);
    const view = ZSyncHistoryXml.parse((await getXml(cookie, 'BOM')).json());
    expect(view.enreg.charCodeAt(0)).toBe(0xfeff);
    const res = await putXml(cookie, 'BOM', { xml: view.enreg });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await ctx.db.query<{ same: boolean }>(
      `SELECT enreg = $3 AS same FROM import_records WHERE installation_id = $1 AND id_interne = $2`,
      [id, 'BOM', real],
    );
    expect(row?.same).toBe(true);
  });

  it.each([
    ['a DOCTYPE', '<!DOCTYPE r [<!ENTITY x "y">]><r>&x;</r>'],
    ['an external entity', '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>'],
    ['an unknown entity', '<r>&nbsp;</r>'],
    ['a broken document', '<r><a></r>'],
    ['two roots', '<r/><r/>'],
    ['an empty text', ''],
    ['a forbidden character', '<r>\u0001</r>'],
    ['300 levels', `${'<a>'.repeat(300)}${'</a>'.repeat(300)}`],
  ])('PUT refuses %s with a French 400 (error field too), nothing written', async (_name, xml) => {
    const { id, cookie } = await fresh();
    await insertRecords(ctx.db, id, [{ IDInterne: 'X3', DateHeure: '2025-01-01T10:00:00Z', Enreg: STORED }]);
    const res = await putXml(cookie, 'X3', { xml });
    expect(res.statusCode, res.body).toBe(400);
    const body = ZSyncHistoryXmlError.parse(res.json());
    expect(body.message).toMatch(/^Le XML de l'enregistrement est invalide : /);
    expect(body.error).toBe(body.message);
    expect((await stored(id, 'X3'))?.enreg).toBe(STORED);
    expect(await audits(id, 'history.xml')).toEqual([]);
  });

  it('PUT over 50 MB: 413 with the spec’s message and the size, nothing written', async () => {
    const { id, cookie } = await fresh();
    await insertRecords(ctx.db, id, [{ IDInterne: 'BIG', DateHeure: '2025-01-01T10:00:00Z', Enreg: STORED }]);
    const xml = `<r>${'A'.repeat(51 * 1024 * 1024)}</r>`;
    const res = await putXml(cookie, 'BIG', { xml });
    expect(res.statusCode).toBe(413);
    const body = ZSyncHistoryXmlError.parse(res.json());
    expect(body.message).toMatch(
      /^Le fichier XML est trop volumineux pour être traité par le serveur \(51,0 MB/,
    );
    expect(body).toMatchObject({
      code: 'XML_TOO_LARGE',
      sizeBytes: Buffer.byteLength(xml),
      maxBytes: 50 * 1024 * 1024,
    });
    expect(body.error).toBe(body.message);
    expect((await stored(id, 'BIG'))?.enreg).toBe(STORED);
  });

  it('PUT with a body beyond the route’s limit: the same 413', async () => {
    const { id, cookie } = await fresh();
    await insertRecords(ctx.db, id, [
      { IDInterne: 'HUGE', DateHeure: '2025-01-01T10:00:00Z', Enreg: STORED },
    ]);
    const payload = `{"xml":"${'A'.repeat(101 * 1024 * 1024)}"}`;
    const res = await ctx.app.inject({
      method: 'PUT',
      url: syncHistoryRecordPath('HUGE', 'xml'),
      headers: { cookie, 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode).toBe(413);
    expect(ZSyncHistoryXmlError.parse(res.json()).message).toMatch(
      /^Le fichier XML est trop volumineux pour être traité par le serveur \(10\d,\d MB/,
    );
    expect((await stored(id, 'HUGE'))?.enreg).toBe(STORED);
  });

  it('other installation’s, unknown and malformed ids: 404 on GET and PUT, nothing written', async () => {
    const a = await fresh();
    const b = await fresh();
    await insertRecords(ctx.db, b.id, [
      { IDInterne: 'B-X', DateHeure: '2025-01-01T10:00:00Z', Enreg: STORED },
    ]);
    for (const target of ['B-X', 'NOPE', 'y'.repeat(101)]) {
      expect((await getXml(a.cookie, target)).statusCode, target).toBe(404);
      const res = await putXml(a.cookie, target, { xml: SIMPLE_ENREG });
      expect(res.statusCode, target).toBe(404);
      expect(ZSyncHistoryXmlError.parse(res.json()).error).toBe(HISTORY_MESSAGES.recordNotFound);
    }
    expect((await stored(b.id, 'B-X'))?.enreg).toBe(STORED);
  });
});

describe('GET /api/sync-history/{id}/file and /log', () => {
  it('the file with its name in Content-Disposition (non-ASCII with filename*)', async () => {
    const { id, cookie } = await fresh();
    const content = Buffer.from('%PDF-1.4 contenu');
    await insertRecords(ctx.db, id, [
      {
        IDInterne: 'F1',
        DateHeure: '2025-01-01T10:00:00Z',
        file: { name: 'Devis signé "final".pdf', content },
      },
      {
        IDInterne: 'F2',
        DateHeure: '2025-01-01T10:00:00Z',
        file: { name: '..\\..\\C:/Windows/evil\r\nX-Injected: 1.png', content },
      },
      { IDInterne: 'F3', DateHeure: '2025-01-01T10:00:00Z', file: { name: 'plain.bin', content } },
    ]);
    let res = await ctx.app.inject({ url: syncHistoryRecordPath('F1', 'file'), headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(content)).toBe(true);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Devis signe final.pdf"; filename*=UTF-8''Devis%20sign%C3%A9%20final.pdf`,
    );
    res = await ctx.app.inject({ url: syncHistoryRecordPath('F2', 'file'), headers: { cookie } });
    expect(res.headers['content-disposition']).toBe('attachment; filename="evilX-Injected: 1.png"');
    expect(res.headers['x-injected']).toBeUndefined();
    expect(res.headers['content-type']).toBe('image/png');
    res = await ctx.app.inject({ url: syncHistoryRecordPath('F3', 'file'), headers: { cookie } });
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toBe('attachment; filename="plain.bin"');
  });

  it('404 with the spec’s message when there is no file, or the record is not this installation’s', async () => {
    const a = await fresh();
    const b = await fresh();
    await insertRecords(ctx.db, a.id, [{ IDInterne: 'NOFILE', DateHeure: '2025-01-01T10:00:00Z' }]);
    await insertRecords(ctx.db, b.id, [
      {
        IDInterne: 'B-FILE',
        DateHeure: '2025-01-01T10:00:00Z',
        file: { name: 'b.pdf', content: Buffer.from('b') },
      },
    ]);
    for (const target of ['NOFILE', 'B-FILE', 'UNKNOWN', 'z'.repeat(200)]) {
      const res = await ctx.app.inject({
        url: syncHistoryRecordPath(target, 'file'),
        headers: { cookie: a.cookie },
      });
      expect(res.statusCode, target).toBe(404);
      expect(res.json().message).toBe(
        "Fichier non disponible - Aucun fichier n'est disponible pour cet enregistrement.",
      );
    }
  });

  it('the log decoded as text; an empty log is an empty text; 404 for others’ records', async () => {
    const a = await fresh();
    const b = await fresh();
    await insertRecords(ctx.db, a.id, [
      { IDInterne: 'L1', DateHeure: '2025-01-01T10:00:00Z', Log: 'Import rÃ©ussi\r\nÃ‰tape 2 : terminÃ©e' },
      { IDInterne: 'L2', DateHeure: '2025-01-01T10:00:00Z' },
    ]);
    await insertRecords(ctx.db, b.id, [
      { IDInterne: 'B-L', DateHeure: '2025-01-01T10:00:00Z', Log: 'secret' },
    ]);
    // As our screens ask for it (api.text): text. Other clients get a JSON string (test/earlier-client.test.ts).
    const asText = { cookie: a.cookie, accept: 'text/plain' };
    let res = await ctx.app.inject({ url: syncHistoryRecordPath('L1', 'log'), headers: asText });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe('Import réussi\r\nÉtape 2 : terminée');
    res = await ctx.app.inject({ url: syncHistoryRecordPath('L2', 'log'), headers: asText });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
    res = await ctx.app.inject({ url: syncHistoryRecordPath('B-L', 'log'), headers: asText });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('secret');
  });
});

describe('GET /api/exports/sync-history.csv', () => {
  const csv = async (cookie: string, query: Query = {}) => {
    const res = await ctx.app.inject({
      url: url('/api/exports/sync-history.csv', query),
      headers: { cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };

  it('BOM, French headers, `;`, quoted texts, neutralised formulas, times with their offset, filters', async () => {
    const { id, cookie } = await fresh();
    await insertRecords(ctx.db, id, [
      {
        IDInterne: 'W',
        DateHeure: '2025-01-15T08:05:09Z',
        RefDoc: '=HYPERLINK("x")',
        TypeElement: 'Création',
        Etat: 1,
      },
      { IDInterne: 'S', DateHeure: '2025-07-15T08:05:09Z', RefDoc: 'a;b "c"\r\nd', Etat: -1, NumLigne: 12 },
      {
        IDInterne: 'N',
        DateHeure: '2025-07-16T08:05:09Z',
        RefDoc: '+33 6',
        TypeEnreg: '@SUM(A1)',
        TypeElement: '-2',
        Etat: 0,
        file: { name: 'f.pdf', content: Buffer.from('x') },
      },
    ]);
    const res = await csv(cookie);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="historique-importation-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(res.rawPayload.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(true);
    const lines = res.body.slice(1).split('\r\n');
    expect(lines[0]).toBe(
      `"Traité";"Type d'élément";"Référence";"Date/Heure Export";"Décalage UTC";"Nb Lignes";"Type Traitement";"ID interne";"Fichier"`,
    );
    expect(lines[1]).toBe(`"Non";"'@SUM(A1)";"'+33 6";"16/07/2025 10:05:09";"UTC+02:00";1;"'-2";"N";"Oui"`);
    expect(lines[2]).toBe(`"Erreur";"DocumentDEVIS";"a;b ""c""`);
    expect(lines[3]).toBe(`d";"15/07/2025 10:05:09";"UTC+02:00";12;"Création";"S";"Non"`);
    expect(lines[4]).toBe(
      `"Oui";"DocumentDEVIS";"'=HYPERLINK(""x"")";"15/01/2025 09:05:09";"UTC+01:00";1;"Création";"W";"Non"`,
    );
    expect(lines[5]).toBe('');
    expect(lines).toHaveLength(6);

    const errors = (await csv(cookie, { errorOnly: true })).body.split('\r\n');
    expect(errors).toHaveLength(4); // header, the two physical lines of S, end
    const day = (await csv(cookie, { date: '2025-01-15' })).body.split('\r\n');
    expect(day[1]).toContain('"W"');
    expect(day).toHaveLength(3);
    const entries = await audits(id, 'import-history.export');
    expect(entries.map((e) => e.details)).toEqual([
      { errorOnly: false, from: null, to: null, search: null },
      { errorOnly: true, from: null, to: null, search: null },
      { errorOnly: false, from: '2025-01-14T23:00:00.000Z', to: '2025-01-15T23:00:00.000Z', search: null },
    ]);
  });

  it('streams thousands of rows in order, batch after batch', async () => {
    const { id, cookie } = await fresh();
    await insertRecordSeries(ctx.db, id, {
      prefix: 'E',
      count: 12_345,
      newest: '2025-06-01T12:00:00Z',
      stepMinutes: 3,
    });
    const lines = (await csv(cookie)).body.split('\r\n');
    expect(lines).toHaveLength(12_345 + 2);
    const exported = lines.slice(1, -1).map((l) => l.split(';')[7]?.replace(/"/g, ''));
    expect(exported).toEqual(await truth(id));
  });
});
