-- Général « Activité » and « À traiter », Terminaux's figures (docs/glance.md): counters kept by
-- statement-level triggers on every write path (the connector, a state change, an XML edit that
-- re-dates a record, a deletion), so no screen ever scans the records or the transactions.

-- Records and transactions per installation and quarter of an hour (UTC). A quarter of an hour
-- is the greatest common divisor of every zone offset in use, so the days of any zone are exact
-- sums of quarters: 30 days are at most 2 880 rows per table.
CREATE TABLE import_record_quarter_counts (
  installation_id uuid NOT NULL REFERENCES installations (id) ON DELETE CASCADE,
  quarter timestamptz NOT NULL,
  total integer NOT NULL,
  errors integer NOT NULL,
  PRIMARY KEY (installation_id, quarter)
);

CREATE TABLE transaction_log_quarter_counts (
  installation_id uuid NOT NULL REFERENCES installations (id) ON DELETE CASCADE,
  quarter timestamptz NOT NULL,
  total integer NOT NULL,
  errors integer NOT NULL,
  PRIMARY KEY (installation_id, quarter)
);

-- Records per installation and state (« À traiter »: errors and waiting ones).
CREATE TABLE import_record_state_counts (
  installation_id uuid NOT NULL REFERENCES installations (id) ON DELETE CASCADE,
  etat smallint NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (installation_id, etat)
);

-- Transactions per installation, terminal (IDTablette) and UTC hour, and each terminal's newest
-- exchange: Terminaux reads 25 terminals × 24 hours at most.
CREATE TABLE terminal_hour_counts (
  installation_id uuid NOT NULL REFERENCES installations (id) ON DELETE CASCADE,
  id_tablette text NOT NULL,
  hour timestamptz NOT NULL,
  total integer NOT NULL,
  errors integer NOT NULL,
  PRIMARY KEY (installation_id, id_tablette, hour)
);

CREATE TABLE terminal_last_exchange (
  installation_id uuid NOT NULL REFERENCES installations (id) ON DELETE CASCADE,
  id_tablette text NOT NULL,
  last_at timestamptz NOT NULL,
  PRIMARY KEY (installation_id, id_tablette)
);

CREATE FUNCTION quarter_of(t timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN date_bin('15 minutes', t, TIMESTAMPTZ '2000-01-01 00:00:00+00');

-- One function per table and event kind: the rows that left (old_rows) count -1, the rows that
-- came (new_rows) +1, grouped; an update that changes neither the time nor the state nets to
-- nothing and writes nothing. A deletion (an installation deleted: its counters may already be
-- gone) only updates rows that exist.
CREATE FUNCTION import_records_activity_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO import_record_quarter_counts AS c (installation_id, quarter, total, errors)
  SELECT installation_id, quarter_of(date_heure), count(*), count(*) FILTER (WHERE etat = -1)
  FROM new_rows GROUP BY 1, 2
  ON CONFLICT (installation_id, quarter)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  INSERT INTO import_record_state_counts AS c (installation_id, etat, n)
  SELECT installation_id, etat, count(*) FROM new_rows GROUP BY 1, 2
  ON CONFLICT (installation_id, etat) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;

CREATE FUNCTION import_records_activity_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE import_record_quarter_counts c SET total = c.total - d.total, errors = c.errors - d.errors
  FROM (
    SELECT installation_id, quarter_of(date_heure) AS quarter,
           count(*)::int AS total, (count(*) FILTER (WHERE etat = -1))::int AS errors
    FROM old_rows GROUP BY 1, 2
  ) d
  WHERE c.installation_id = d.installation_id AND c.quarter = d.quarter;
  UPDATE import_record_state_counts c SET n = c.n - d.n
  FROM (SELECT installation_id, etat, count(*) AS n FROM old_rows GROUP BY 1, 2) d
  WHERE c.installation_id = d.installation_id AND c.etat = d.etat;
  RETURN NULL;
END $$;

CREATE FUNCTION import_records_activity_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
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

CREATE TRIGGER import_records_activity_insert AFTER INSERT ON import_records
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION import_records_activity_insert();
CREATE TRIGGER import_records_activity_delete AFTER DELETE ON import_records
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION import_records_activity_delete();
CREATE TRIGGER import_records_activity_update AFTER UPDATE ON import_records
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION import_records_activity_update();

CREATE FUNCTION transaction_logs_activity_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO transaction_log_quarter_counts AS c (installation_id, quarter, total, errors)
  SELECT installation_id, quarter_of(date_heure_trt), count(*), count(*) FILTER (WHERE err = 1)
  FROM new_rows GROUP BY 1, 2
  ON CONFLICT (installation_id, quarter)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
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

-- A deleted transaction leaves the newest exchange as it was (it happened); the figures drop it.
CREATE FUNCTION transaction_logs_activity_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE transaction_log_quarter_counts c SET total = c.total - d.total, errors = c.errors - d.errors
  FROM (
    SELECT installation_id, quarter_of(date_heure_trt) AS quarter,
           count(*)::int AS total, (count(*) FILTER (WHERE err = 1))::int AS errors
    FROM old_rows GROUP BY 1, 2
  ) d
  WHERE c.installation_id = d.installation_id AND c.quarter = d.quarter;
  UPDATE terminal_hour_counts c SET total = c.total - d.total, errors = c.errors - d.errors
  FROM (
    SELECT installation_id, id_tablette, date_trunc('hour', date_heure_trt, 'UTC') AS hour,
           count(*)::int AS total, (count(*) FILTER (WHERE err = 1))::int AS errors
    FROM old_rows GROUP BY 1, 2, 3
  ) d
  WHERE c.installation_id = d.installation_id AND c.id_tablette = d.id_tablette AND c.hour = d.hour;
  RETURN NULL;
END $$;

CREATE FUNCTION transaction_logs_activity_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
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

CREATE TRIGGER transaction_logs_activity_insert AFTER INSERT ON transaction_logs
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_logs_activity_insert();
CREATE TRIGGER transaction_logs_activity_delete AFTER DELETE ON transaction_logs
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_logs_activity_delete();
CREATE TRIGGER transaction_logs_activity_update AFTER UPDATE ON transaction_logs
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_logs_activity_update();

-- The rows already stored are counted once here.
INSERT INTO import_record_quarter_counts (installation_id, quarter, total, errors)
SELECT installation_id, quarter_of(date_heure), count(*), count(*) FILTER (WHERE etat = -1)
FROM import_records GROUP BY 1, 2;
INSERT INTO import_record_state_counts (installation_id, etat, n)
SELECT installation_id, etat, count(*) FROM import_records GROUP BY 1, 2;
INSERT INTO transaction_log_quarter_counts (installation_id, quarter, total, errors)
SELECT installation_id, quarter_of(date_heure_trt), count(*), count(*) FILTER (WHERE err = 1)
FROM transaction_logs GROUP BY 1, 2;
INSERT INTO terminal_hour_counts (installation_id, id_tablette, hour, total, errors)
SELECT installation_id, id_tablette, date_trunc('hour', date_heure_trt, 'UTC'), count(*), count(*) FILTER (WHERE err = 1)
FROM transaction_logs GROUP BY 1, 2, 3;
INSERT INTO terminal_last_exchange (installation_id, id_tablette, last_at)
SELECT installation_id, id_tablette, max(date_heure_trt) FROM transaction_logs GROUP BY 1, 2;

-- A terminal's transactions newest first (the editor's last 20, the trace filtered on it).
CREATE INDEX transaction_logs_terminal_idx ON transaction_logs (installation_id, id_tablette, date_heure_trt DESC, id DESC);
