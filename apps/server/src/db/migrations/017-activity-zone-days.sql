-- Général « Activité » by local day (docs/glance.md, issue 17): the 30 days of the chart read 30
-- rows per table instead of summing up to 2 880 quarters of an hour and converting each to the
-- zone's day on every request.
--
-- The days are those of one zone per installation, the one « Activité » was last read in
-- (`activity_zone`). The server registers it (and rebuilds the day counts from the quarter
-- counters of migration 014, which stay the exact source) on the first read in a zone
-- (domain/activity.ts); from then on the triggers keep the day counts of that zone beside the
-- quarters. No zone registered: no day counts, the triggers skip them.

CREATE TABLE activity_zone (
  installation_id uuid PRIMARY KEY REFERENCES installations (id) ON DELETE CASCADE,
  zone text NOT NULL
);

CREATE TABLE import_record_zone_day_counts (
  installation_id uuid NOT NULL REFERENCES installations (id) ON DELETE CASCADE,
  day date NOT NULL,
  total integer NOT NULL,
  errors integer NOT NULL,
  PRIMARY KEY (installation_id, day)
);

CREATE TABLE transaction_log_zone_day_counts (
  installation_id uuid NOT NULL REFERENCES installations (id) ON DELETE CASCADE,
  day date NOT NULL,
  total integer NOT NULL,
  PRIMARY KEY (installation_id, day)
);

-- A rebuild (a new zone) and the triggers of one installation exclude each other by this advisory
-- lock: every writing statement holds it shared until its transaction ends, the rebuild takes it
-- exclusive. So the rebuild sums every quarter already written (their writers have committed),
-- and a write that follows it sees the new zone. Other installations are not held up.
CREATE FUNCTION activity_zone_lock_key(installation uuid) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (74110617::bigint << 32) | (hashtext(installation::text)::bigint & 4294967295);

CREATE OR REPLACE FUNCTION import_records_activity_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(activity_zone_lock_key(installation_id))
  FROM (SELECT DISTINCT installation_id FROM new_rows) i;
  INSERT INTO import_record_quarter_counts AS c (installation_id, quarter, total, errors)
  SELECT installation_id, quarter_of(date_heure), count(*), count(*) FILTER (WHERE etat = -1)
  FROM new_rows GROUP BY 1, 2
  ON CONFLICT (installation_id, quarter)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  INSERT INTO import_record_zone_day_counts AS c (installation_id, day, total, errors)
  SELECT n.installation_id, (n.date_heure AT TIME ZONE z.zone)::date, count(*), count(*) FILTER (WHERE n.etat = -1)
  FROM new_rows n JOIN activity_zone z ON z.installation_id = n.installation_id GROUP BY 1, 2
  ON CONFLICT (installation_id, day)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  INSERT INTO import_record_state_counts AS c (installation_id, etat, n)
  SELECT installation_id, etat, count(*) FROM new_rows GROUP BY 1, 2
  ON CONFLICT (installation_id, etat) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION import_records_activity_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(activity_zone_lock_key(installation_id))
  FROM (SELECT DISTINCT installation_id FROM old_rows) i;
  UPDATE import_record_quarter_counts c SET total = c.total - d.total, errors = c.errors - d.errors
  FROM (
    SELECT installation_id, quarter_of(date_heure) AS quarter,
           count(*)::int AS total, (count(*) FILTER (WHERE etat = -1))::int AS errors
    FROM old_rows GROUP BY 1, 2
  ) d
  WHERE c.installation_id = d.installation_id AND c.quarter = d.quarter;
  UPDATE import_record_zone_day_counts c SET total = c.total - d.total, errors = c.errors - d.errors
  FROM (
    SELECT o.installation_id, (o.date_heure AT TIME ZONE z.zone)::date AS day,
           count(*)::int AS total, (count(*) FILTER (WHERE o.etat = -1))::int AS errors
    FROM old_rows o JOIN activity_zone z ON z.installation_id = o.installation_id GROUP BY 1, 2
  ) d
  WHERE c.installation_id = d.installation_id AND c.day = d.day;
  UPDATE import_record_state_counts c SET n = c.n - d.n
  FROM (SELECT installation_id, etat, count(*) AS n FROM old_rows GROUP BY 1, 2) d
  WHERE c.installation_id = d.installation_id AND c.etat = d.etat;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION import_records_activity_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(activity_zone_lock_key(installation_id))
  FROM (SELECT installation_id FROM new_rows UNION SELECT installation_id FROM old_rows) i;
  INSERT INTO import_record_quarter_counts AS c (installation_id, quarter, total, errors)
  SELECT installation_id, quarter, sum(total), sum(errors)
  FROM (
    SELECT installation_id, quarter_of(date_heure) AS quarter, 1 AS total, (etat = -1)::int AS errors
    FROM new_rows
    UNION ALL
    SELECT installation_id, quarter_of(date_heure), -1, -((etat = -1)::int)
    FROM old_rows
  ) d
  GROUP BY 1, 2
  HAVING sum(total) <> 0 OR sum(errors) <> 0
  ON CONFLICT (installation_id, quarter)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  INSERT INTO import_record_zone_day_counts AS c (installation_id, day, total, errors)
  SELECT d.installation_id, (d.date_heure AT TIME ZONE z.zone)::date, sum(d.total), sum(d.errors)
  FROM (
    SELECT installation_id, date_heure, 1 AS total, (etat = -1)::int AS errors FROM new_rows
    UNION ALL
    SELECT installation_id, date_heure, -1, -((etat = -1)::int) FROM old_rows
  ) d
  JOIN activity_zone z ON z.installation_id = d.installation_id
  GROUP BY 1, 2
  HAVING sum(d.total) <> 0 OR sum(d.errors) <> 0
  ON CONFLICT (installation_id, day)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  INSERT INTO import_record_state_counts AS c (installation_id, etat, n)
  SELECT installation_id, etat, sum(n)
  FROM (
    SELECT installation_id, etat, 1 AS n FROM new_rows
    UNION ALL
    SELECT installation_id, etat, -1 FROM old_rows
  ) d
  GROUP BY 1, 2
  HAVING sum(n) <> 0
  ON CONFLICT (installation_id, etat) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION transaction_logs_activity_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(activity_zone_lock_key(installation_id))
  FROM (SELECT DISTINCT installation_id FROM new_rows) i;
  INSERT INTO transaction_log_quarter_counts AS c (installation_id, quarter, total, errors)
  SELECT installation_id, quarter_of(date_heure_trt), count(*), count(*) FILTER (WHERE err = 1)
  FROM new_rows GROUP BY 1, 2
  ON CONFLICT (installation_id, quarter)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  INSERT INTO transaction_log_zone_day_counts AS c (installation_id, day, total)
  SELECT n.installation_id, (n.date_heure_trt AT TIME ZONE z.zone)::date, count(*)
  FROM new_rows n JOIN activity_zone z ON z.installation_id = n.installation_id GROUP BY 1, 2
  ON CONFLICT (installation_id, day) DO UPDATE SET total = c.total + EXCLUDED.total;
  INSERT INTO terminal_hour_counts AS c (installation_id, id_tablette, hour, total, errors)
  SELECT installation_id, id_tablette, date_trunc('hour', date_heure_trt, 'UTC'), count(*),
         count(*) FILTER (WHERE err = 1)
  FROM new_rows GROUP BY 1, 2, 3
  ON CONFLICT (installation_id, id_tablette, hour)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  INSERT INTO terminal_last_exchange AS c (installation_id, id_tablette, last_at)
  SELECT installation_id, id_tablette, max(date_heure_trt) FROM new_rows GROUP BY 1, 2
  ON CONFLICT (installation_id, id_tablette)
  DO UPDATE SET last_at = greatest(c.last_at, EXCLUDED.last_at);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION transaction_logs_activity_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(activity_zone_lock_key(installation_id))
  FROM (SELECT DISTINCT installation_id FROM old_rows) i;
  UPDATE transaction_log_quarter_counts c SET total = c.total - d.total, errors = c.errors - d.errors
  FROM (
    SELECT installation_id, quarter_of(date_heure_trt) AS quarter,
           count(*)::int AS total, (count(*) FILTER (WHERE err = 1))::int AS errors
    FROM old_rows GROUP BY 1, 2
  ) d
  WHERE c.installation_id = d.installation_id AND c.quarter = d.quarter;
  UPDATE transaction_log_zone_day_counts c SET total = c.total - d.total
  FROM (
    SELECT o.installation_id, (o.date_heure_trt AT TIME ZONE z.zone)::date AS day, count(*)::int AS total
    FROM old_rows o JOIN activity_zone z ON z.installation_id = o.installation_id GROUP BY 1, 2
  ) d
  WHERE c.installation_id = d.installation_id AND c.day = d.day;
  UPDATE terminal_hour_counts c SET total = c.total - d.total, errors = c.errors - d.errors
  FROM (
    SELECT installation_id, id_tablette, date_trunc('hour', date_heure_trt, 'UTC') AS hour,
           count(*)::int AS total, (count(*) FILTER (WHERE err = 1))::int AS errors
    FROM old_rows GROUP BY 1, 2, 3
  ) d
  WHERE c.installation_id = d.installation_id AND c.id_tablette = d.id_tablette AND c.hour = d.hour;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION transaction_logs_activity_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(activity_zone_lock_key(installation_id))
  FROM (SELECT installation_id FROM new_rows UNION SELECT installation_id FROM old_rows) i;
  INSERT INTO transaction_log_quarter_counts AS c (installation_id, quarter, total, errors)
  SELECT installation_id, quarter, sum(total), sum(errors)
  FROM (
    SELECT installation_id, quarter_of(date_heure_trt) AS quarter, 1 AS total, (err = 1)::int AS errors
    FROM new_rows
    UNION ALL
    SELECT installation_id, quarter_of(date_heure_trt), -1, -((err = 1)::int)
    FROM old_rows
  ) d
  GROUP BY 1, 2
  HAVING sum(total) <> 0 OR sum(errors) <> 0
  ON CONFLICT (installation_id, quarter)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  INSERT INTO transaction_log_zone_day_counts AS c (installation_id, day, total)
  SELECT d.installation_id, (d.date_heure_trt AT TIME ZONE z.zone)::date, sum(d.total)
  FROM (
    SELECT installation_id, date_heure_trt, 1 AS total FROM new_rows
    UNION ALL
    SELECT installation_id, date_heure_trt, -1 FROM old_rows
  ) d
  JOIN activity_zone z ON z.installation_id = d.installation_id
  GROUP BY 1, 2
  HAVING sum(d.total) <> 0
  ON CONFLICT (installation_id, day) DO UPDATE SET total = c.total + EXCLUDED.total;
  INSERT INTO terminal_hour_counts AS c (installation_id, id_tablette, hour, total, errors)
  SELECT installation_id, id_tablette, hour, sum(total), sum(errors)
  FROM (
    SELECT installation_id, id_tablette, date_trunc('hour', date_heure_trt, 'UTC') AS hour,
           1 AS total, (err = 1)::int AS errors
    FROM new_rows
    UNION ALL
    SELECT installation_id, id_tablette, date_trunc('hour', date_heure_trt, 'UTC'), -1, -((err = 1)::int)
    FROM old_rows
  ) d
  GROUP BY 1, 2, 3
  HAVING sum(total) <> 0 OR sum(errors) <> 0
  ON CONFLICT (installation_id, id_tablette, hour)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  INSERT INTO terminal_last_exchange AS c (installation_id, id_tablette, last_at)
  SELECT installation_id, id_tablette, max(date_heure_trt) FROM new_rows GROUP BY 1, 2
  ON CONFLICT (installation_id, id_tablette)
  DO UPDATE SET last_at = greatest(c.last_at, EXCLUDED.last_at);
  RETURN NULL;
END $$;
