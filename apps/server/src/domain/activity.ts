import {
  ACTIVITY_DAYS,
  type TActivityDay,
  type TDashboardActivity,
  type TTerminalActivity,
} from '@synchro/contracts';
import type { Queryable } from '../db/types.ts';

/**
 * Général's « Activité » and « À traiter », Terminaux's figures: sums of the counters migration
 * 014 keeps by triggers (docs/glance.md). The days are the installation zone's: a day is the sum
 * of its quarters of an hour, so a 23- or 25-hour day (daylight saving) is counted whole.
 */

/** The first instant of the chart's first day in `zone`, and the days' labels, from the database's clock. */
const DAYS_SQL = `
  WITH bounds AS (
    SELECT (date_trunc('day', $3::timestamptz AT TIME ZONE $2) - make_interval(days => $4 - 1)) AS first_local
  ),
  days AS (
    SELECT (first_local + make_interval(days => i))::date AS day FROM bounds, generate_series(0, $4 - 1) AS i
  ),
  rec AS (
    SELECT (quarter AT TIME ZONE $2)::date AS day, sum(total)::int AS records, sum(errors)::int AS errors
    FROM import_record_quarter_counts, bounds
    WHERE installation_id = $1 AND quarter >= (first_local AT TIME ZONE $2)
    GROUP BY 1
  ),
  tx AS (
    SELECT (quarter AT TIME ZONE $2)::date AS day, sum(total)::int AS transactions
    FROM transaction_log_quarter_counts, bounds
    WHERE installation_id = $1 AND quarter >= (first_local AT TIME ZONE $2)
    GROUP BY 1
  )
  SELECT to_char(days.day, 'YYYY-MM-DD') AS day, coalesce(rec.records, 0) AS records,
         coalesce(rec.errors, 0) AS errors, coalesce(tx.transactions, 0) AS transactions
  FROM days LEFT JOIN rec USING (day) LEFT JOIN tx USING (day)
  ORDER BY days.day`;

export async function readActivityDays(
  db: Queryable,
  installationId: string,
  zone: string,
  now: Date,
): Promise<TActivityDay[]> {
  // Records dated in the future (a terminal's clock ahead) are not shown: the chart ends today.
  const rows = await db.query<TActivityDay>(DAYS_SQL, [
    installationId,
    zone,
    now.toISOString(),
    ACTIVITY_DAYS,
  ]);
  return rows.map((r) => ({
    day: r.day,
    records: Number(r.records),
    errors: Number(r.errors),
    transactions: Number(r.transactions),
  }));
}

export async function readToHandle(
  db: Queryable,
  installationId: string,
): Promise<TDashboardActivity['toHandle']> {
  const rows = await db.query<{ etat: number; n: string | number }>(
    `SELECT etat, n FROM import_record_state_counts WHERE installation_id = $1`,
    [installationId],
  );
  const of = (etat: number) => Number(rows.find((r) => r.etat === etat)?.n ?? 0);
  return { errors: of(-1), waiting: of(0) };
}

export async function readDashboardActivity(
  db: Queryable,
  installationId: string,
  zone: string,
  now: Date,
): Promise<TDashboardActivity> {
  const [days, toHandle] = await Promise.all([
    readActivityDays(db, installationId, zone, now),
    readToHandle(db, installationId),
  ]);
  return { zone, days, toHandle };
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
