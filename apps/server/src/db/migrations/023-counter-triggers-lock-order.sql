-- The statement triggers that keep the counters (004, 014, 017, 018) take their rows in one order,
-- as the batch counters do since 022: each upsert is fed its rows sorted by its key, and each
-- decrement of a deletion first locks its rows in key order (`FOR UPDATE` of a sorted read). Their
-- rows came in a hash aggregate's or a join's order, which differs from one set of keys to another,
-- so that two multi-row writes of one installation at the same moment (a bulk status change, the
-- retention's deletions, a connector batch) sharing two or more counter rows of a table could each
-- hold a row the other wanted next, and PostgreSQL stopped one after deadlock_timeout. The tables
-- keep the order the triggers fire in (by name: activity, day counts, storage), the order of 022.
-- Otherwise the functions are the latest ones of their migrations, unchanged
-- (features/connector/batch-counts.test.ts checks the order of each kind of write).

CREATE OR REPLACE FUNCTION import_records_activity_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(activity_zone_lock_key(installation_id))
  FROM (SELECT DISTINCT installation_id FROM new_rows) i;
  INSERT INTO import_record_quarter_counts AS c (installation_id, quarter, total, errors)
  SELECT installation_id, quarter_of(date_heure), count(*), count(*) FILTER (WHERE etat = -1)
  FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (installation_id, quarter)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  INSERT INTO import_record_zone_day_counts AS c (installation_id, day, total, errors)
  SELECT n.installation_id, (n.date_heure AT TIME ZONE z.zone)::date, count(*), count(*) FILTER (WHERE n.etat = -1)
  FROM new_rows n JOIN activity_zone z ON z.installation_id = n.installation_id GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (installation_id, day)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  INSERT INTO import_record_state_counts AS c (installation_id, etat, n)
  SELECT installation_id, etat, count(*) FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (installation_id, etat) DO UPDATE SET n = c.n + EXCLUDED.n;
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
  HAVING sum(total) <> 0 OR sum(errors) <> 0 ORDER BY 1, 2
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
  HAVING sum(d.total) <> 0 OR sum(d.errors) <> 0 ORDER BY 1, 2
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
  HAVING sum(n) <> 0 ORDER BY 1, 2
  ON CONFLICT (installation_id, etat) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION import_records_activity_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(activity_zone_lock_key(installation_id))
  FROM (SELECT DISTINCT installation_id FROM old_rows) i;
  PERFORM 1 FROM import_record_quarter_counts c JOIN (
    SELECT installation_id, quarter_of(date_heure) AS quarter,
           count(*)::int AS total, (count(*) FILTER (WHERE etat = -1))::int AS errors
    FROM old_rows GROUP BY 1, 2
  ) d
    ON c.installation_id = d.installation_id AND c.quarter = d.quarter
    ORDER BY c.installation_id, c.quarter FOR UPDATE OF c;
  UPDATE import_record_quarter_counts c SET total = c.total - d.total, errors = c.errors - d.errors
  FROM (
    SELECT installation_id, quarter_of(date_heure) AS quarter,
           count(*)::int AS total, (count(*) FILTER (WHERE etat = -1))::int AS errors
    FROM old_rows GROUP BY 1, 2
  ) d
  WHERE c.installation_id = d.installation_id AND c.quarter = d.quarter;
  PERFORM 1 FROM import_record_zone_day_counts c JOIN (
    SELECT o.installation_id, (o.date_heure AT TIME ZONE z.zone)::date AS day,
           count(*)::int AS total, (count(*) FILTER (WHERE o.etat = -1))::int AS errors
    FROM old_rows o JOIN activity_zone z ON z.installation_id = o.installation_id GROUP BY 1, 2
  ) d
    ON c.installation_id = d.installation_id AND c.day = d.day
    ORDER BY c.installation_id, c.day FOR UPDATE OF c;
  UPDATE import_record_zone_day_counts c SET total = c.total - d.total, errors = c.errors - d.errors
  FROM (
    SELECT o.installation_id, (o.date_heure AT TIME ZONE z.zone)::date AS day,
           count(*)::int AS total, (count(*) FILTER (WHERE o.etat = -1))::int AS errors
    FROM old_rows o JOIN activity_zone z ON z.installation_id = o.installation_id GROUP BY 1, 2
  ) d
  WHERE c.installation_id = d.installation_id AND c.day = d.day;
  PERFORM 1 FROM import_record_state_counts c JOIN (SELECT installation_id, etat, count(*) AS n FROM old_rows GROUP BY 1, 2) d
    ON c.installation_id = d.installation_id AND c.etat = d.etat
    ORDER BY c.installation_id, c.etat FOR UPDATE OF c;
  UPDATE import_record_state_counts c SET n = c.n - d.n
  FROM (SELECT installation_id, etat, count(*) AS n FROM old_rows GROUP BY 1, 2) d
  WHERE c.installation_id = d.installation_id AND c.etat = d.etat;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION import_records_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO import_record_day_counts AS c (installation_id, day, total, errors)
  SELECT installation_id, (date_heure AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE etat = -1)
  FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (installation_id, day)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION import_records_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO import_record_day_counts AS c (installation_id, day, total, errors)
  SELECT installation_id, day, sum(total), sum(errors)
  FROM (
    SELECT installation_id, (date_heure AT TIME ZONE 'UTC')::date AS day, 1 AS total, (etat = -1)::int AS errors
    FROM new_rows
    UNION ALL
    SELECT installation_id, (date_heure AT TIME ZONE 'UTC')::date, -1, -((etat = -1)::int)
    FROM old_rows
  ) d
  GROUP BY 1, 2
  HAVING sum(total) <> 0 OR sum(errors) <> 0 ORDER BY 1, 2
  ON CONFLICT (installation_id, day)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION import_records_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM import_record_day_counts c JOIN (
    SELECT installation_id, (date_heure AT TIME ZONE 'UTC')::date AS day,
           count(*)::int AS total, (count(*) FILTER (WHERE etat = -1))::int AS errors
    FROM old_rows GROUP BY 1, 2
  ) d
    ON c.installation_id = d.installation_id AND c.day = d.day
    ORDER BY c.installation_id, c.day FOR UPDATE OF c;
  UPDATE import_record_day_counts c SET total = c.total - d.total, errors = c.errors - d.errors
  FROM (
    SELECT installation_id, (date_heure AT TIME ZONE 'UTC')::date AS day,
           count(*)::int AS total, (count(*) FILTER (WHERE etat = -1))::int AS errors
    FROM old_rows GROUP BY 1, 2
  ) d
  WHERE c.installation_id = d.installation_id AND c.day = d.day;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION transaction_logs_activity_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(activity_zone_lock_key(installation_id))
  FROM (SELECT DISTINCT installation_id FROM new_rows) i;
  INSERT INTO transaction_log_quarter_counts AS c (installation_id, quarter, total, errors)
  SELECT installation_id, quarter_of(date_heure_trt), count(*), count(*) FILTER (WHERE err = 1)
  FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (installation_id, quarter)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  INSERT INTO transaction_log_zone_day_counts AS c (installation_id, day, total)
  SELECT n.installation_id, (n.date_heure_trt AT TIME ZONE z.zone)::date, count(*)
  FROM new_rows n JOIN activity_zone z ON z.installation_id = n.installation_id GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (installation_id, day) DO UPDATE SET total = c.total + EXCLUDED.total;
  INSERT INTO terminal_hour_counts AS c (installation_id, id_tablette, hour, total, errors)
  SELECT installation_id, id_tablette, date_trunc('hour', date_heure_trt, 'UTC'), count(*),
         count(*) FILTER (WHERE err = 1)
  FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (installation_id, id_tablette, hour)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  INSERT INTO terminal_last_exchange AS c (installation_id, id_tablette, last_at, total, errors)
  SELECT installation_id, id_tablette, max(date_heure_trt), count(*), count(*) FILTER (WHERE err = 1)
  FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (installation_id, id_tablette)
  DO UPDATE SET last_at = greatest(c.last_at, EXCLUDED.last_at),
    total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
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
  HAVING sum(total) <> 0 OR sum(errors) <> 0 ORDER BY 1, 2
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
  HAVING sum(d.total) <> 0 ORDER BY 1, 2
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
  HAVING sum(total) <> 0 OR sum(errors) <> 0 ORDER BY 1, 2, 3
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
  HAVING max(last_at) IS NOT NULL OR sum(total) <> 0 OR sum(errors) <> 0 ORDER BY 1, 2
  ON CONFLICT (installation_id, id_tablette)
  DO UPDATE SET last_at = greatest(c.last_at, EXCLUDED.last_at),
    total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION transaction_logs_activity_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(activity_zone_lock_key(installation_id))
  FROM (SELECT DISTINCT installation_id FROM old_rows) i;
  PERFORM 1 FROM transaction_log_quarter_counts c JOIN (
    SELECT installation_id, quarter_of(date_heure_trt) AS quarter,
           count(*)::int AS total, (count(*) FILTER (WHERE err = 1))::int AS errors
    FROM old_rows GROUP BY 1, 2
  ) d
    ON c.installation_id = d.installation_id AND c.quarter = d.quarter
    ORDER BY c.installation_id, c.quarter FOR UPDATE OF c;
  UPDATE transaction_log_quarter_counts c SET total = c.total - d.total, errors = c.errors - d.errors
  FROM (
    SELECT installation_id, quarter_of(date_heure_trt) AS quarter,
           count(*)::int AS total, (count(*) FILTER (WHERE err = 1))::int AS errors
    FROM old_rows GROUP BY 1, 2
  ) d
  WHERE c.installation_id = d.installation_id AND c.quarter = d.quarter;
  PERFORM 1 FROM transaction_log_zone_day_counts c JOIN (
    SELECT o.installation_id, (o.date_heure_trt AT TIME ZONE z.zone)::date AS day, count(*)::int AS total
    FROM old_rows o JOIN activity_zone z ON z.installation_id = o.installation_id GROUP BY 1, 2
  ) d
    ON c.installation_id = d.installation_id AND c.day = d.day
    ORDER BY c.installation_id, c.day FOR UPDATE OF c;
  UPDATE transaction_log_zone_day_counts c SET total = c.total - d.total
  FROM (
    SELECT o.installation_id, (o.date_heure_trt AT TIME ZONE z.zone)::date AS day, count(*)::int AS total
    FROM old_rows o JOIN activity_zone z ON z.installation_id = o.installation_id GROUP BY 1, 2
  ) d
  WHERE c.installation_id = d.installation_id AND c.day = d.day;
  PERFORM 1 FROM terminal_hour_counts c JOIN (
    SELECT installation_id, id_tablette, date_trunc('hour', date_heure_trt, 'UTC') AS hour,
           count(*)::int AS total, (count(*) FILTER (WHERE err = 1))::int AS errors
    FROM old_rows GROUP BY 1, 2, 3
  ) d
    ON c.installation_id = d.installation_id AND c.id_tablette = d.id_tablette AND c.hour = d.hour
    ORDER BY c.installation_id, c.id_tablette, c.hour FOR UPDATE OF c;
  UPDATE terminal_hour_counts c SET total = c.total - d.total, errors = c.errors - d.errors
  FROM (
    SELECT installation_id, id_tablette, date_trunc('hour', date_heure_trt, 'UTC') AS hour,
           count(*)::int AS total, (count(*) FILTER (WHERE err = 1))::int AS errors
    FROM old_rows GROUP BY 1, 2, 3
  ) d
  WHERE c.installation_id = d.installation_id AND c.id_tablette = d.id_tablette AND c.hour = d.hour;
  PERFORM 1 FROM terminal_last_exchange c JOIN (
    SELECT installation_id, id_tablette, count(*) AS total, count(*) FILTER (WHERE err = 1) AS errors
    FROM old_rows GROUP BY 1, 2
  ) d
    ON c.installation_id = d.installation_id AND c.id_tablette = d.id_tablette
    ORDER BY c.installation_id, c.id_tablette FOR UPDATE OF c;
  UPDATE terminal_last_exchange c SET total = c.total - d.total, errors = c.errors - d.errors
  FROM (
    SELECT installation_id, id_tablette, count(*) AS total, count(*) FILTER (WHERE err = 1) AS errors
    FROM old_rows GROUP BY 1, 2
  ) d
  WHERE c.installation_id = d.installation_id AND c.id_tablette = d.id_tablette;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION transaction_logs_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO transaction_log_day_counts AS c (installation_id, day, total, errors)
  SELECT installation_id, (date_heure_trt AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE err = 1)
  FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (installation_id, day)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION transaction_logs_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO transaction_log_day_counts AS c (installation_id, day, total, errors)
  SELECT installation_id, day, sum(total), sum(errors)
  FROM (
    SELECT installation_id, (date_heure_trt AT TIME ZONE 'UTC')::date AS day, 1 AS total, (err = 1)::int AS errors
    FROM new_rows
    UNION ALL
    SELECT installation_id, (date_heure_trt AT TIME ZONE 'UTC')::date, -1, -((err = 1)::int)
    FROM old_rows
  ) d
  GROUP BY 1, 2
  HAVING sum(total) <> 0 OR sum(errors) <> 0 ORDER BY 1, 2
  ON CONFLICT (installation_id, day)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION transaction_logs_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM transaction_log_day_counts c JOIN (
    SELECT installation_id, (date_heure_trt AT TIME ZONE 'UTC')::date AS day,
           count(*)::int AS total, (count(*) FILTER (WHERE err = 1))::int AS errors
    FROM old_rows GROUP BY 1, 2
  ) d
    ON c.installation_id = d.installation_id AND c.day = d.day
    ORDER BY c.installation_id, c.day FOR UPDATE OF c;
  UPDATE transaction_log_day_counts c SET total = c.total - d.total, errors = c.errors - d.errors
  FROM (
    SELECT installation_id, (date_heure_trt AT TIME ZONE 'UTC')::date AS day,
           count(*)::int AS total, (count(*) FILTER (WHERE err = 1))::int AS errors
    FROM old_rows GROUP BY 1, 2
  ) d
  WHERE c.installation_id = d.installation_id AND c.day = d.day;
  RETURN NULL;
END $$;
