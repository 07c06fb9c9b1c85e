-- Each terminal's totals beside its newest exchange (docs/glance.md): the trace filtered on one
-- terminal (Terminaux's editor) counted its rows by summing its hour counters, 21 000 rows for
-- three years scattered over 5 000 pages (28 ms); it now reads one row. The same upsert of
-- `terminal_last_exchange` the triggers already made per terminal and statement carries them.
-- A row whose terminal lost all its transactions stays, at 0 (its newest exchange is kept).

ALTER TABLE terminal_last_exchange
  ADD COLUMN total bigint NOT NULL DEFAULT 0,
  ADD COLUMN errors bigint NOT NULL DEFAULT 0;

UPDATE terminal_last_exchange e SET total = s.total, errors = s.errors
FROM (
  SELECT installation_id, id_tablette, sum(total) AS total, sum(errors) AS errors
  FROM terminal_hour_counts GROUP BY 1, 2
) s
WHERE e.installation_id = s.installation_id AND e.id_tablette = s.id_tablette;

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
  INSERT INTO terminal_last_exchange AS c (installation_id, id_tablette, last_at, total, errors)
  SELECT installation_id, id_tablette, max(date_heure_trt), count(*), count(*) FILTER (WHERE err = 1)
  FROM new_rows GROUP BY 1, 2
  ON CONFLICT (installation_id, id_tablette)
  DO UPDATE SET last_at = greatest(c.last_at, EXCLUDED.last_at),
    total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
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
  UPDATE terminal_last_exchange c SET total = c.total - d.total, errors = c.errors - d.errors
  FROM (
    SELECT installation_id, id_tablette, count(*) AS total, count(*) FILTER (WHERE err = 1) AS errors
    FROM old_rows GROUP BY 1, 2
  ) d
  WHERE c.installation_id = d.installation_id AND c.id_tablette = d.id_tablette;
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
  INSERT INTO terminal_last_exchange AS c (installation_id, id_tablette, last_at, total, errors)
  -- A terminal that only lost rows has a row here already: '-infinity' leaves its last_at as is.
  SELECT installation_id, id_tablette, coalesce(max(last_at), '-infinity'), sum(total), sum(errors)
  FROM (
    SELECT installation_id, id_tablette, date_heure_trt AS last_at, 1 AS total, (err = 1)::int AS errors
    FROM new_rows
    UNION ALL
    SELECT installation_id, id_tablette, NULL, -1, -((err = 1)::int)
    FROM old_rows
  ) d
  GROUP BY 1, 2
  HAVING max(last_at) IS NOT NULL OR sum(total) <> 0 OR sum(errors) <> 0
  ON CONFLICT (installation_id, id_tablette)
  DO UPDATE SET last_at = greatest(c.last_at, EXCLUDED.last_at),
    total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  RETURN NULL;
END $$;
