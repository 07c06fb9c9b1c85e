import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInstallation } from '../../test/helpers/app.ts';
import { openTestDb } from '../../test/helpers/db.ts';
import { insertRecords, insertTransactions } from '../../test/helpers/history.ts';
import type { Db } from '../db/types.ts';
import { countActivityIn, readDashboardActivity, readTerminalsActivity } from './activity.ts';

const readActivityDays = async (id: string, zone: string, now: Date) =>
  (await readDashboardActivity(db, id, zone, now)).days;
const countedZone = async (id: string) =>
  (await db.query<{ zone: string }>('SELECT zone FROM activity_zone WHERE installation_id = $1', [id]))[0]
    ?.zone;

let db: Db;
let installationId: string;
let otherId: string;

beforeAll(async () => {
  db = await openTestDb();
  installationId = (await addInstallation(db, { syncId: 'ACTIV01' })).installation.id;
  otherId = (await addInstallation(db, { syncId: 'ACTIV02' })).installation.id;
});
afterAll(async () => {
  await db.close();
});

/** The same figures by a scan of the rows: what the counters must always equal. */
async function scannedDays(zone: string) {
  const rows = await db.query<{ day: string; records: number; errors: number }>(
    `SELECT to_char((date_heure AT TIME ZONE $2)::date, 'YYYY-MM-DD') AS day, count(*)::int AS records,
            (count(*) FILTER (WHERE etat = -1))::int AS errors
     FROM import_records WHERE installation_id = $1 GROUP BY 1`,
    [installationId, zone],
  );
  const tx = await db.query<{ day: string; n: number }>(
    `SELECT to_char((date_heure_trt AT TIME ZONE $2)::date, 'YYYY-MM-DD') AS day, count(*)::int AS n
     FROM transaction_logs WHERE installation_id = $1 GROUP BY 1`,
    [installationId, zone],
  );
  return { rows, tx };
}

/**
 * `kept`: the day counters were already kept in `zone` (the triggers wrote them, no rebuild
 * hides a mistake of theirs).
 */
async function expectCountersRight(zone: string, now: Date, kept = true) {
  if (kept) expect(await countedZone(installationId)).toBe(zone);
  const { days, toHandle } = await readDashboardActivity(db, installationId, zone, now);
  const { rows, tx } = await scannedDays(zone);
  for (const d of days) {
    const r = rows.find((x) => x.day === d.day);
    expect({ day: d.day, records: d.records, errors: d.errors }).toEqual({
      day: d.day,
      records: r?.records ?? 0,
      errors: r?.errors ?? 0,
    });
    expect(d.transactions, d.day).toBe(tx.find((x) => x.day === d.day)?.n ?? 0);
  }
  const [states] = await db.query<{ errors: number; waiting: number }>(
    `SELECT (count(*) FILTER (WHERE etat = -1))::int AS errors, (count(*) FILTER (WHERE etat = 0))::int AS waiting
     FROM import_records WHERE installation_id = $1`,
    [installationId],
  );
  expect(toHandle).toEqual(states);
  // Each terminal's totals (migration 018), terminals left without a transaction at 0.
  const counted = await db.query<{ terminal: string; total: number; errors: number }>(
    `SELECT id_tablette AS terminal, total::int, errors::int FROM terminal_last_exchange
     WHERE installation_id = $1 AND (total <> 0 OR errors <> 0) ORDER BY 1`,
    [installationId],
  );
  const scanned = await db.query<{ terminal: string; total: number; errors: number }>(
    `SELECT id_tablette AS terminal, count(*)::int AS total, (count(*) FILTER (WHERE err = 1))::int AS errors
     FROM transaction_logs WHERE installation_id = $1 GROUP BY 1 ORDER BY 1`,
    [installationId],
  );
  expect(counted).toEqual(scanned);
}

const NOW = new Date('2025-03-31T10:00:00Z');

describe('activity counters (migration 014)', () => {
  it('gives 30 days of the zone, oldest first, ending today, zeros included', async () => {
    const days = await readActivityDays(otherId, 'Europe/Paris', NOW);
    expect(days).toHaveLength(30);
    expect(days[0]?.day).toBe('2025-03-02');
    expect(days[29]).toEqual({ day: '2025-03-31', records: 0, errors: 0, transactions: 0 });
  });

  it('counts the days of the installation zone, a 23-hour day (daylight saving) whole', async () => {
    await insertRecords(db, installationId, [
      // 23:30 UTC on the 29th is the 30th in Paris (UTC+1), 00:30 on the 30th.
      { IDInterne: 'r1', DateHeure: '2025-03-29T23:30:00Z', Etat: 1 },
      // 22:30 UTC on the 30th is 00:30 on the 31st in Paris (UTC+2 since 02:00).
      { IDInterne: 'r2', DateHeure: '2025-03-30T22:30:00Z', Etat: -1 },
      { IDInterne: 'r3', DateHeure: '2025-03-30T21:59:00Z', Etat: 0 },
      // India is UTC+5:30: 18:29 UTC is 23:59 on the 30th, 18:30 UTC is the 31st.
      { IDInterne: 'r4', DateHeure: '2025-03-30T18:29:00Z', Etat: 0 },
      { IDInterne: 'r5', DateHeure: '2025-03-30T18:30:00Z', Etat: 1 },
    ]);
    await insertTransactions(db, installationId, [
      { ID: 't1', DateHeureTrt: '2025-03-30T22:30:00Z', Err: 1, IDTablette: 'T1' },
      { ID: 't2', DateHeureTrt: '2025-03-30T08:00:00Z', IDTablette: 'T2' },
    ]);
    const paris = await readActivityDays(installationId, 'Europe/Paris', NOW);
    expect(paris.find((d) => d.day === '2025-03-30')).toEqual({
      day: '2025-03-30',
      records: 4,
      errors: 0,
      transactions: 1,
    });
    expect(paris.find((d) => d.day === '2025-03-31')).toEqual({
      day: '2025-03-31',
      records: 1,
      errors: 1,
      transactions: 1,
    });
    const india = await readActivityDays(installationId, 'Asia/Kolkata', NOW);
    expect(india.find((d) => d.day === '2025-03-30')?.records).toBe(2);
    expect(india.find((d) => d.day === '2025-03-31')?.records).toBe(3);
    // Each zone change rebuilds the day counters from the quarters.
    await expectCountersRight('Europe/Paris', NOW, false);
    await expectCountersRight('Asia/Kolkata', NOW, false);
    expect((await readDashboardActivity(db, otherId, 'Europe/Paris', NOW)).toHandle).toEqual({
      errors: 0,
      waiting: 0,
    });
  });

  it('stays right when a record changes state, day, or goes, one row or many', async () => {
    // From here on the triggers keep the day counters of Paris.
    await expectCountersRight('Europe/Paris', NOW, false);
    await db.query(`UPDATE import_records SET etat = -1 WHERE installation_id = $1 AND id_interne = 'r1'`, [
      installationId,
    ]);
    await expectCountersRight('Europe/Paris', NOW);
    // Re-dated (the connector sends the record again with another DateHeure).
    await db.query(
      `UPDATE import_records SET date_heure = '2025-03-20T10:00:00Z' WHERE installation_id = $1 AND id_interne = 'r2'`,
      [installationId],
    );
    await expectCountersRight('Europe/Paris', NOW);
    // Many rows in one statement, state and day together.
    await db.query(
      `UPDATE import_records SET etat = 0, date_heure = date_heure - interval '1 day' WHERE installation_id = $1`,
      [installationId],
    );
    await expectCountersRight('Europe/Paris', NOW);
    // An update that changes neither (a log) writes nothing wrong.
    await db.query(`UPDATE import_records SET log = 'x' WHERE installation_id = $1`, [installationId]);
    await expectCountersRight('Europe/Paris', NOW);
    // The connector's upsert.
    await db.query(
      `INSERT INTO import_records (installation_id, id_interne, date_heure, etat, enreg)
       VALUES ($1, 'r3', '2025-03-25T10:00:00Z', -1, '<x/>'), ($1, 'r9', '2025-03-25T11:00:00Z', 0, '<x/>')
       ON CONFLICT (installation_id, id_interne) DO UPDATE SET etat = EXCLUDED.etat, date_heure = EXCLUDED.date_heure`,
      [installationId],
    );
    await expectCountersRight('Europe/Paris', NOW);
    await db.query(`DELETE FROM import_records WHERE installation_id = $1 AND id_interne IN ('r4', 'r9')`, [
      installationId,
    ]);
    await db.query(
      `UPDATE transaction_logs SET err = 0, date_heure_trt = date_heure_trt - interval '2 days'
      WHERE installation_id = $1 AND tx_id = 't1'`,
      [installationId],
    );
    await expectCountersRight('Europe/Paris', NOW);
    // Transactions moved to another terminal: a new one, and the one the first left.
    await db.query(
      `UPDATE transaction_logs SET id_tablette = CASE tx_id WHEN 't1' THEN 'T-NEW' ELSE 'T1' END
       WHERE installation_id = $1 AND tx_id IN ('t1', 't2')`,
      [installationId],
    );
    await expectCountersRight('Europe/Paris', NOW);
    await db.query(`DELETE FROM transaction_logs WHERE installation_id = $1 AND tx_id = 't2'`, [
      installationId,
    ]);
    await expectCountersRight('Europe/Paris', NOW);
  });

  it('keeps the days through a many-row insert, and rebuilds them in a new zone after pending writes', async () => {
    await expectCountersRight('Europe/Paris', NOW);
    await db.query(
      `INSERT INTO import_records (installation_id, id_interne, date_heure, etat, enreg)
       SELECT $1, 'm' || i, timestamptz '2025-03-29T20:00:00Z' + make_interval(mins => i * 7), i % 3 - 1, '<x/>'
       FROM generate_series(1, 500) AS i`,
      [installationId],
    );
    await expectCountersRight('Europe/Paris', NOW);
    // A writer that has not committed yet: the rebuild in another zone waits for it (PostgreSQL;
    // PGlite runs one transaction at a time anyway), then counts its rows.
    let commit!: () => void;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    const writer = db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO import_records (installation_id, id_interne, date_heure, etat, enreg)
         VALUES ($1, 'pending', '2025-03-05T20:00:00Z', -1, '<x/>')`,
        [installationId],
      );
      written();
      await committed;
    });
    await wrote;
    const rebuild = countActivityIn(db, installationId, 'Asia/Kolkata');
    setTimeout(commit, 300);
    await Promise.all([writer, rebuild]);
    await expectCountersRight('Asia/Kolkata', NOW);
    await expectCountersRight('Europe/Paris', NOW, false);
  });

  it('gives each terminal its newest exchange and its figures of the last 24 hours', async () => {
    await insertTransactions(db, otherId, [
      { ID: 'a1', DateHeureTrt: '2025-03-31T09:10:00Z', IDTablette: 'A', Err: 1 },
      { ID: 'a2', DateHeureTrt: '2025-03-30T11:10:00Z', IDTablette: 'A' },
      // Before the window (the hour bucket 23 hours before 10:00 starts at 11:00 the day before).
      { ID: 'a3', DateHeureTrt: '2025-03-30T10:50:00Z', IDTablette: 'A' },
      { ID: 'b1', DateHeureTrt: '2025-03-20T09:00:00Z', IDTablette: 'B' },
    ]);
    expect(await readTerminalsActivity(db, otherId, NOW)).toEqual([
      { terminalId: 'A', lastExchangeAt: '2025-03-31T09:10:00.000Z', transactions24h: 2, errors24h: 1 },
      { terminalId: 'B', lastExchangeAt: '2025-03-20T09:00:00.000Z', transactions24h: 0, errors24h: 0 },
    ]);
  });
});
