import {
  DASHBOARD_ACTIVITY_PATH,
  SYNC_HISTORY_BULK_STATUS_PATH,
  SYNC_HISTORY_PATH,
  TERMINALS_ACTIVITY_PATH,
  ZDashboardActivity,
  ZSyncHistoryBulkStatusAnswer,
  ZSyncHistoryPage,
  ZTerminalsActivity,
} from '@synchro/contracts';
import { describe, expect, it } from 'vitest';
import { addInstallation, signIn, useTestApp } from '../../../test/helpers/app.ts';
import { connectorCall } from '../../../test/helpers/connector.ts';
import { insertRecords, insertTransactions } from '../../../test/helpers/history.ts';

const clock = new Date('2025-03-31T10:00:00Z');

const ctx = useTestApp({ now: () => clock });

let counter = 0;
async function fresh() {
  const syncId = `BULK${++counter}`;
  const { installation, connectorToken } = await addInstallation(ctx.db, { syncId });
  return { id: installation.id, token: connectorToken, cookie: await signIn(ctx.app, syncId) };
}

async function bulk(cookie: string, payload: object) {
  return ctx.app.inject({ method: 'POST', url: SYNC_HISTORY_BULK_STATUS_PATH, headers: { cookie }, payload });
}

async function states(installationId: string) {
  const rows = await ctx.db.query<{ id: string; etat: number }>(
    'SELECT id_interne AS id, etat FROM import_records WHERE installation_id = $1 ORDER BY id_interne',
    [installationId],
  );
  return Object.fromEntries(rows.map((r) => [r.id, r.etat]));
}

async function audits(installationId: string) {
  return ctx.db.query<{ details: Record<string, unknown> }>(
    `SELECT details FROM audit_log WHERE installation_id = $1 AND action = 'history.bulk-status'`,
    [installationId],
  );
}

const SEED = [
  // 30 March in Paris (UTC+2 since the night).
  { IDInterne: 'e1', DateHeure: '2025-03-30T08:00:00Z', Etat: -1 as const, RefDoc: 'DEVIS-1' },
  { IDInterne: 'e2', DateHeure: '2025-03-30T09:00:00Z', Etat: -1 as const, RefDoc: 'FACT-2' },
  { IDInterne: 'ok', DateHeure: '2025-03-30T10:00:00Z', Etat: 1 as const, RefDoc: 'DEVIS-3' },
  // Another day.
  { IDInterne: 'e3', DateHeure: '2025-03-29T08:00:00Z', Etat: -1 as const, RefDoc: 'DEVIS-4' },
];

describe('POST /api/sync-history/bulk-status', () => {
  it('counts first (dry run: nothing changed), then re-queues the errors of a day in one audit row', async () => {
    const a = await fresh();
    await insertRecords(ctx.db, a.id, SEED);
    const filter = { errorOnly: true, date: '2025-03-30' };
    const dry = await bulk(a.cookie, { newStatus: 0, ...filter, dryRun: true });
    expect(dry.statusCode, dry.body).toBe(200);
    expect(ZSyncHistoryBulkStatusAnswer.parse(dry.json())).toEqual({ count: 2, dryRun: true });
    expect(await states(a.id)).toEqual({ e1: -1, e2: -1, e3: -1, ok: 1 });
    expect(await audits(a.id)).toHaveLength(0);

    const done = await bulk(a.cookie, { newStatus: 0, ...filter });
    expect(done.json()).toEqual({ count: 2, dryRun: false });
    expect(await states(a.id)).toEqual({ e1: 0, e2: 0, e3: -1, ok: 1 });
    const rows = await audits(a.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.details).toMatchObject({ to: 0, count: 2, errorOnly: true, queued: true });

    // The connector's queue sees them, oldest first.
    const queue = await connectorCall(ctx.app, 'GET', '/import-records/queue?limit=10', a.token);
    expect(queue.statusCode, queue.body).toBe(200);
    const queued = (queue.json() as { records: { IDInterne: string }[] }).records.map((r) => r.IDInterne);
    expect(queued).toEqual(['e1', 'e2']);

    // « À traiter » follows.
    const activity = await ctx.app.inject({ url: DASHBOARD_ACTIVITY_PATH, headers: { cookie: a.cookie } });
    expect(ZDashboardActivity.parse(activity.json()).toHandle).toEqual({ errors: 1, waiting: 2 });
  });

  it('marks every record of a search processed; again changes nothing and writes no audit', async () => {
    const a = await fresh();
    await insertRecords(ctx.db, a.id, SEED);
    const first = await bulk(a.cookie, { newStatus: 1, search: 'devis-' });
    expect(first.json()).toEqual({ count: 2, dryRun: false });
    expect(await states(a.id)).toEqual({ e1: 1, e2: -1, e3: 1, ok: 1 });
    expect((await bulk(a.cookie, { newStatus: 1, search: 'devis-' })).json()).toEqual({
      count: 0,
      dryRun: false,
    });
    expect(await audits(a.id)).toHaveLength(1);
  });

  it('refuses a bad state or filter in French and changes nothing', async () => {
    const a = await fresh();
    await insertRecords(ctx.db, a.id, SEED);
    for (const payload of [{ newStatus: -1 }, { newStatus: 1, date: 'hier' }, {}]) {
      const res = await bulk(a.cookie, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toMatch(/attendu|doit valoir/);
    }
    expect(await states(a.id)).toEqual({ e1: -1, e2: -1, e3: -1, ok: 1 });
  });

  it('never touches another installation', async () => {
    const a = await fresh();
    const b = await fresh();
    await insertRecords(ctx.db, a.id, SEED);
    await insertRecords(ctx.db, b.id, SEED);
    await bulk(a.cookie, { newStatus: 1 });
    expect(await states(b.id)).toEqual({ e1: -1, e2: -1, e3: -1, ok: 1 });
  });
});

describe('GET /api/sync-history?waitingOnly=true (« Non traité », Général’s « À traiter »)', () => {
  it('lists the waiting records only, counted from the counters, and acts on them', async () => {
    const a = await fresh();
    await insertRecords(ctx.db, a.id, [
      ...SEED,
      { IDInterne: 'w1', DateHeure: '2025-03-30T11:00:00Z', Etat: 0 },
      { IDInterne: 'w2', DateHeure: '2025-03-28T11:00:00Z', Etat: 0 },
    ]);
    const res = await ctx.app.inject({
      url: `${SYNC_HISTORY_PATH}?waitingOnly=true&pageSize=1`,
      headers: { cookie: a.cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = ZSyncHistoryPage.parse(res.json());
    expect(page.data.map((r) => r.IDInterne)).toEqual(['w1']);
    expect(page.total).toBe(2);
    const day = await ctx.app.inject({
      url: `${SYNC_HISTORY_PATH}?waitingOnly=1&date=2025-03-28`,
      headers: { cookie: a.cookie },
    });
    expect(ZSyncHistoryPage.parse(day.json()).data.map((r) => r.IDInterne)).toEqual(['w2']);
    expect((await bulk(a.cookie, { newStatus: 1, waitingOnly: true })).json()).toEqual({
      count: 2,
      dryRun: false,
    });
    expect(await states(a.id)).toMatchObject({ w1: 1, w2: 1, e1: -1 });
  });
});

describe('GET /api/dashboard/activity and /api/terminals/activity', () => {
  it('gives the 30 days of the zone with the seeded figures and each terminal', async () => {
    const a = await fresh();
    await insertRecords(ctx.db, a.id, SEED);
    await insertTransactions(ctx.db, a.id, [
      { ID: 't1', DateHeureTrt: '2025-03-31T09:00:00Z', IDTablette: 'T1', Err: 1 },
      { ID: 't2', DateHeureTrt: '2025-03-30T09:00:00Z', IDTablette: 'T1' },
    ]);
    const res = await ctx.app.inject({ url: DASHBOARD_ACTIVITY_PATH, headers: { cookie: a.cookie } });
    expect(res.statusCode, res.body).toBe(200);
    const view = ZDashboardActivity.parse(res.json());
    expect(view.zone).toBe('Europe/Paris');
    expect(view.days).toHaveLength(30);
    expect(view.days.find((d) => d.day === '2025-03-30')).toEqual({
      day: '2025-03-30',
      records: 3,
      errors: 2,
      transactions: 1,
    });
    expect(view.days.at(-1)).toEqual({ day: '2025-03-31', records: 0, errors: 0, transactions: 1 });
    const terminals = await ctx.app.inject({ url: TERMINALS_ACTIVITY_PATH, headers: { cookie: a.cookie } });
    expect(ZTerminalsActivity.parse(terminals.json())).toEqual({
      now: clock.toISOString(),
      zone: 'Europe/Paris',
      terminals: [
        { terminalId: 'T1', lastExchangeAt: '2025-03-31T09:00:00.000Z', transactions24h: 1, errors24h: 1 },
      ],
    });
  });
});
