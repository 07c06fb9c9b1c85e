import {
  ACTIVITY_DAYS,
  type TActivityDay,
  type TDashboardActivity,
  type TTerminalActivity,
} from '@synchro/contracts';
import type { Db, Queryable } from '../db/types.ts';

/**
 * Général's « Activité » and « À traiter », Terminaux's figures: counters kept by triggers
 * (migrations 014 and 017, docs/glance.md), never a scan of the records.
 *
 * « Activité » reads day counters in the installation's zone: 30 rows per table. They are kept
 * for one zone per installation (`activity_zone`); the first read in another zone (a new
 * installation, Planification's zone changed) rebuilds them from the quarter-of-an-hour counters
 * of migration 014, which every zone's days are exact sums of (a 23- or 25-hour day is counted
 * whole).
 */

/**
 * One round trip: the 30 days ending today in `$3`, their counts, the zone the day counters are
 * kept in, and « À traiter ». `$2`: the clock; `$4`: the number of days.
 */
const ACTIVITY_SQL = `
  WITH today AS (SELECT ($2::timestamptz AT TIME ZONE $3)::date AS d),
  days AS (SELECT d - i AS day FROM today, generate_series(0, $4::int - 1) AS i),
  rec AS (
    SELECT day, total, errors FROM import_record_zone_day_counts, today
    WHERE installation_id = $1 AND day BETWEEN d - ($4::int - 1) AND d
  ),
  tx AS (
    SELECT day, total FROM transaction_log_zone_day_counts, today
    WHERE installation_id = $1 AND day BETWEEN d - ($4::int - 1) AND d
  )
  SELECT to_char(days.day, 'YYYY-MM-DD') AS day, coalesce(rec.total, 0) AS records,
         coalesce(rec.errors, 0) AS errors, coalesce(tx.total, 0) AS transactions,
         (SELECT zone FROM activity_zone WHERE installation_id = $1) AS "countedZone",
         (SELECT n FROM import_record_state_counts WHERE installation_id = $1 AND etat = -1) AS "errorsNow",
         (SELECT n FROM import_record_state_counts WHERE installation_id = $1 AND etat = 0) AS "waitingNow"
  FROM days LEFT JOIN rec USING (day) LEFT JOIN tx USING (day)
  ORDER BY days.day`;

interface ActivityRow {
  day: string;
  records: number | string;
  errors: number | string;
  transactions: number | string;
  countedZone: string | null;
  errorsNow: number | string | null;
  waitingNow: number | string | null;
}

/**
 * Keeps the day counters of an installation in `zone` from now on: rebuilt from the quarters,
 * under the installation's exclusive advisory lock, which every writing statement's triggers hold
 * shared (migration 017): the quarters of writes not yet committed are never missed.
 */
export async function countActivityIn(db: Db, installationId: string, zone: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(activity_zone_lock_key($1))', [installationId]);
    const [current] = await tx.query<{ zone: string }>(
      'SELECT zone FROM activity_zone WHERE installation_id = $1',
      [installationId],
    );
    if (current?.zone === zone) return;
    await tx.query('DELETE FROM import_record_zone_day_counts WHERE installation_id = $1', [installationId]);
    await tx.query('DELETE FROM transaction_log_zone_day_counts WHERE installation_id = $1', [
      installationId,
    ]);
    await tx.query(
      `INSERT INTO import_record_zone_day_counts (installation_id, day, total, errors)
       SELECT installation_id, (quarter AT TIME ZONE $2)::date, sum(total), sum(errors)
       FROM import_record_quarter_counts WHERE installation_id = $1 GROUP BY 1, 2`,
      [installationId, zone],
    );
    await tx.query(
      `INSERT INTO transaction_log_zone_day_counts (installation_id, day, total)
       SELECT installation_id, (quarter AT TIME ZONE $2)::date, sum(total)
       FROM transaction_log_quarter_counts WHERE installation_id = $1 GROUP BY 1, 2`,
      [installationId, zone],
    );
    await tx.query(
      `INSERT INTO activity_zone (installation_id, zone) VALUES ($1, $2)
       ON CONFLICT (installation_id) DO UPDATE SET zone = EXCLUDED.zone`,
      [installationId, zone],
    );
  });
}

async function readActivityRows(db: Db, installationId: string, zone: string, now: Date) {
  const read = () =>
    db.query<ActivityRow>(ACTIVITY_SQL, [installationId, now.toISOString(), zone, ACTIVITY_DAYS], {
      prepare: 'dashboard_activity',
    });
  const rows = await read();
  if (rows[0]?.countedZone === zone) return rows;
  await countActivityIn(db, installationId, zone);
  return read();
}

/** The chart's days (oldest first, today last) and « À traiter », from one query. */
export async function readDashboardActivity(
  db: Db,
  installationId: string,
  zone: string,
  now: Date,
): Promise<TDashboardActivity> {
  // Records dated in the future (a terminal's clock ahead) are not shown: the chart ends today.
  const rows = await readActivityRows(db, installationId, zone, now);
  const days: TActivityDay[] = rows.map((r) => ({
    day: r.day,
    records: Number(r.records),
    errors: Number(r.errors),
    transactions: Number(r.transactions),
  }));
  const first = rows[0];
  return {
    zone,
    days,
    toHandle: { errors: Number(first?.errorsNow ?? 0), waiting: Number(first?.waitingNow ?? 0) },
  };
}

/**
 * Each terminal the trace knows: its newest exchange, its transactions and errors of the hour
 * buckets from 23 hours before the current one (between 23 and 24 hours: docs/glance.md).
 */
export async function readTerminalsActivity(
  db: Queryable,
  installationId: string,
  now: Date,
): Promise<TTerminalActivity[]> {
  const rows = await db.query<{ terminalId: string; lastAt: Date; total: number; errors: number }>(
    `SELECT l.id_tablette AS "terminalId", l.last_at AS "lastAt",
            coalesce(sum(h.total), 0)::int AS total, coalesce(sum(h.errors), 0)::int AS errors
     FROM terminal_last_exchange l
     LEFT JOIN terminal_hour_counts h
       ON h.installation_id = l.installation_id AND h.id_tablette = l.id_tablette
      AND h.hour >= date_trunc('hour', $2::timestamptz, 'UTC') - interval '23 hours'
      AND h.hour <= $2::timestamptz
     WHERE l.installation_id = $1
     GROUP BY l.id_tablette, l.last_at
     ORDER BY l.id_tablette`,
    [installationId, now.toISOString()],
  );
  return rows.map((r) => ({
    terminalId: r.terminalId,
    lastExchangeAt: new Date(r.lastAt).toISOString(),
    transactions24h: Number(r.total),
    errors24h: Number(r.errors),
  }));
}
