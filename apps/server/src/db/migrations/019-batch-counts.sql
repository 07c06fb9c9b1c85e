-- The counters of a connector batch written once for the batch instead of once per statement
-- (docs/connector-api.md, issue 18). A batch of 500 records is six multi-row statements in one
-- transaction, and the three statement triggers of an insert (day counts 004, storage 006,
-- activity 014/017/018) ran after each: on PostgreSQL they cost about 40 % of the batch's
-- database time (bench/README.md, « Connector API: ingestion », third pass).
--
-- A transaction that sets `synchro.batch_counts` to `on` (SET LOCAL: it ends with the transaction)
-- skips those insert triggers and must call import_records_added / transaction_logs_added with
-- the ids of every row it inserted, once, after its last insert. Any other writer (the console,
-- the admin commands, a raw INSERT) keeps the triggers as before. The functions below do, for
-- those rows, exactly what the insert triggers do for theirs; a test compares the counters both
-- ways on the same rows (features/connector/batch-counts.test.ts).

CREATE FUNCTION batch_counts_deferred() RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE
RETURN coalesce(current_setting('synchro.batch_counts', true), '') = 'on';

DROP TRIGGER import_records_count_insert ON import_records;
CREATE TRIGGER import_records_count_insert AFTER INSERT ON import_records
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT WHEN (NOT batch_counts_deferred())
  EXECUTE FUNCTION import_records_count_insert();
DROP TRIGGER import_records_storage_insert ON import_records;
CREATE TRIGGER import_records_storage_insert AFTER INSERT ON import_records
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT WHEN (NOT batch_counts_deferred())
  EXECUTE FUNCTION installation_storage_count('coalesce(octet_length(r.enreg), 0) + octet_length(r.log)');
DROP TRIGGER import_records_activity_insert ON import_records;
CREATE TRIGGER import_records_activity_insert AFTER INSERT ON import_records
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT WHEN (NOT batch_counts_deferred())
  EXECUTE FUNCTION import_records_activity_insert();

DROP TRIGGER transaction_logs_count_insert ON transaction_logs;
CREATE TRIGGER transaction_logs_count_insert AFTER INSERT ON transaction_logs
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT WHEN (NOT batch_counts_deferred())
  EXECUTE FUNCTION transaction_logs_count_insert();
DROP TRIGGER transaction_logs_storage_insert ON transaction_logs;
CREATE TRIGGER transaction_logs_storage_insert AFTER INSERT ON transaction_logs
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT WHEN (NOT batch_counts_deferred())
  EXECUTE FUNCTION installation_storage_count('octet_length(r.log)');
DROP TRIGGER transaction_logs_activity_insert ON transaction_logs;
CREATE TRIGGER transaction_logs_activity_insert AFTER INSERT ON transaction_logs
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT WHEN (NOT batch_counts_deferred())
  EXECUTE FUNCTION transaction_logs_activity_insert();

-- The insert triggers' work for the import records `ids` of `installation` (import_records_count_insert,
-- installation_storage_count, import_records_activity_insert). The zone lock first, in its own
-- statement, as the trigger does: the day counts then read the zone a rebuild may have just set.
CREATE FUNCTION import_records_added(installation uuid, ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(ids) = 0 THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock_shared(activity_zone_lock_key(installation));
  WITH new_rows AS MATERIALIZED (
    SELECT installation_id, date_heure, etat, coalesce(octet_length(enreg), 0) + octet_length(log) AS bytes
    FROM import_records WHERE installation_id = installation AND id = ANY (ids)
  ),
  day_counts AS (
    INSERT INTO import_record_day_counts AS c (installation_id, day, total, errors)
    SELECT installation_id, (date_heure AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE etat = -1)
    FROM new_rows GROUP BY 1, 2
    ON CONFLICT (installation_id, day)
    DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors
  ),
  storage AS (
    INSERT INTO installation_storage AS s (installation_id, bytes)
    SELECT installation_id, sum(bytes) FROM new_rows GROUP BY 1
    ON CONFLICT (installation_id) DO UPDATE SET bytes = s.bytes + EXCLUDED.bytes
  ),
  quarter_counts AS (
    INSERT INTO import_record_quarter_counts AS c (installation_id, quarter, total, errors)
    SELECT installation_id, quarter_of(date_heure), count(*), count(*) FILTER (WHERE etat = -1)
    FROM new_rows GROUP BY 1, 2
    ON CONFLICT (installation_id, quarter)
    DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors
  ),
  zone_day_counts AS (
    INSERT INTO import_record_zone_day_counts AS c (installation_id, day, total, errors)
    SELECT n.installation_id, (n.date_heure AT TIME ZONE z.zone)::date, count(*), count(*) FILTER (WHERE n.etat = -1)
    FROM new_rows n JOIN activity_zone z ON z.installation_id = n.installation_id GROUP BY 1, 2
    ON CONFLICT (installation_id, day)
    DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors
  )
  INSERT INTO import_record_state_counts AS c (installation_id, etat, n)
  SELECT installation_id, etat, count(*) FROM new_rows GROUP BY 1, 2
  ON CONFLICT (installation_id, etat) DO UPDATE SET n = c.n + EXCLUDED.n;
END $$;

-- The same for transactions (transaction_logs_count_insert, installation_storage_count,
-- transaction_logs_activity_insert of 018).
CREATE FUNCTION transaction_logs_added(installation uuid, ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(ids) = 0 THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock_shared(activity_zone_lock_key(installation));
  WITH new_rows AS MATERIALIZED (
    SELECT installation_id, date_heure_trt, err, id_tablette, octet_length(log) AS bytes
    FROM transaction_logs WHERE installation_id = installation AND id = ANY (ids)
  ),
  day_counts AS (
    INSERT INTO transaction_log_day_counts AS c (installation_id, day, total, errors)
    SELECT installation_id, (date_heure_trt AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE err = 1)
    FROM new_rows GROUP BY 1, 2
    ON CONFLICT (installation_id, day)
    DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors
  ),
  storage AS (
    INSERT INTO installation_storage AS s (installation_id, bytes)
    SELECT installation_id, sum(bytes) FROM new_rows GROUP BY 1
    ON CONFLICT (installation_id) DO UPDATE SET bytes = s.bytes + EXCLUDED.bytes
  ),
  quarter_counts AS (
    INSERT INTO transaction_log_quarter_counts AS c (installation_id, quarter, total, errors)
    SELECT installation_id, quarter_of(date_heure_trt), count(*), count(*) FILTER (WHERE err = 1)
    FROM new_rows GROUP BY 1, 2
    ON CONFLICT (installation_id, quarter)
    DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors
  ),
  zone_day_counts AS (
    INSERT INTO transaction_log_zone_day_counts AS c (installation_id, day, total)
    SELECT n.installation_id, (n.date_heure_trt AT TIME ZONE z.zone)::date, count(*)
    FROM new_rows n JOIN activity_zone z ON z.installation_id = n.installation_id GROUP BY 1, 2
    ON CONFLICT (installation_id, day) DO UPDATE SET total = c.total + EXCLUDED.total
  ),
  hour_counts AS (
    INSERT INTO terminal_hour_counts AS c (installation_id, id_tablette, hour, total, errors)
    SELECT installation_id, id_tablette, date_trunc('hour', date_heure_trt, 'UTC'), count(*),
           count(*) FILTER (WHERE err = 1)
    FROM new_rows GROUP BY 1, 2, 3
    ON CONFLICT (installation_id, id_tablette, hour)
    DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors
  )
  INSERT INTO terminal_last_exchange AS c (installation_id, id_tablette, last_at, total, errors)
  SELECT installation_id, id_tablette, max(date_heure_trt), count(*), count(*) FILTER (WHERE err = 1)
  FROM new_rows GROUP BY 1, 2
  ON CONFLICT (installation_id, id_tablette)
  DO UPDATE SET last_at = greatest(c.last_at, EXCLUDED.last_at),
    total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
END $$;
