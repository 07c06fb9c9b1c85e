/**
 * The statements of Général's « Activité » and Terminaux's figures as the server sends them
 * (apps/server/src/domain/activity.ts, copied: the benches import no server code), for the raw
 * SQL beside the API in bench/glance/run.ts and at ten million rows in bench/history/run.ts.
 */

/** $1 the installation, $2 the clock, $3 the zone, $4 the number of days (30). */
export const ACTIVITY_SQL = `
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

export const activityParams = (installationId: string, zone: string, now = new Date()) => [
  installationId,
  now.toISOString(),
  zone,
  30,
];

/** $1 the installation, $2 the clock. */
export const TERMINALS_SQL = `SELECT l.id_tablette AS "terminalId", l.last_at AS "lastAt",
            coalesce(sum(h.total), 0)::int AS total, coalesce(sum(h.errors), 0)::int AS errors
     FROM terminal_last_exchange l
     LEFT JOIN terminal_hour_counts h
       ON h.installation_id = l.installation_id AND h.id_tablette = l.id_tablette
      AND h.hour >= date_trunc('hour', $2::timestamptz, 'UTC') - interval '23 hours'
      AND h.hour <= $2::timestamptz
     WHERE l.installation_id = $1
     GROUP BY l.id_tablette, l.last_at
     ORDER BY l.id_tablette`;

export const terminalsParams = (installationId: string, now = new Date()) => [
  installationId,
  now.toISOString(),
];
