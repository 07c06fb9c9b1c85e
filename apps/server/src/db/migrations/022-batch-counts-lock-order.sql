-- The batch counters of 019/021 take their row locks in one order. Their upserts took the counter
-- rows in the order of a hash aggregate's output, which differs from one set of rows to another:
-- two batches of one installation sharing terminals, hours, days or quarters (different ids,
-- written at the same moment) could each hold a row the other wanted next, and PostgreSQL stopped
-- one after deadlock_timeout (a 409 after a second; bench/load: 47 of 1 294 pushes with ten
-- connectors per installation). Now each upsert is fed its rows in the order of its key
-- (`ORDER BY`), and the tables come in the insert triggers' order (the triggers fire by name:
-- activity, then the day counts, then the storage), so that a batch and a single-row write (an
-- import's result, a state change) also meet the rows in the same order.
--
-- The batch's rows are read once by primary key (021's fence kept) into arrays, which each upsert
-- reads again. The counts are those of 021, unchanged (features/connector/batch-counts.test.ts
-- compares them with the insert triggers' on the same rows, and checks the order of every upsert's
-- rows in the functions' plans).

CREATE OR REPLACE FUNCTION import_records_added(installation uuid, ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  dates timestamptz[];
  etats smallint[];
  sizes bigint[];
BEGIN
  IF cardinality(ids) = 0 THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock_shared(activity_zone_lock_key(installation));
  SELECT array_agg(date_heure), array_agg(etat), array_agg(bytes) INTO dates, etats, sizes
  FROM (SELECT installation_id, date_heure, etat, coalesce(octet_length(enreg), 0) + octet_length(log) AS bytes
        FROM import_records WHERE id = ANY (ids) OFFSET 0) by_id
  WHERE installation_id = installation;
  IF dates IS NULL THEN RETURN; END IF;

  INSERT INTO import_record_quarter_counts AS c (installation_id, quarter, total, errors)
  SELECT installation, quarter_of(r.d), count(*), count(*) FILTER (WHERE r.e = -1)
  FROM unnest(dates, etats) AS r(d, e) GROUP BY 2 ORDER BY 2
  ON CONFLICT (installation_id, quarter)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;

  INSERT INTO import_record_zone_day_counts AS c (installation_id, day, total, errors)
  SELECT installation, (r.d AT TIME ZONE z.zone)::date, count(*), count(*) FILTER (WHERE r.e = -1)
  FROM unnest(dates, etats) AS r(d, e) JOIN activity_zone z ON z.installation_id = installation
  GROUP BY 2 ORDER BY 2
  ON CONFLICT (installation_id, day)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;

  INSERT INTO import_record_state_counts AS c (installation_id, etat, n)
  SELECT installation, r.e, count(*) FROM unnest(etats) AS r(e) GROUP BY 2 ORDER BY 2
  ON CONFLICT (installation_id, etat) DO UPDATE SET n = c.n + EXCLUDED.n;

  INSERT INTO import_record_day_counts AS c (installation_id, day, total, errors)
  SELECT installation, (r.d AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE r.e = -1)
  FROM unnest(dates, etats) AS r(d, e) GROUP BY 2 ORDER BY 2
  ON CONFLICT (installation_id, day)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;

  INSERT INTO installation_storage AS s (installation_id, bytes)
  SELECT installation, sum(r.b) FROM unnest(sizes) AS r(b)
  ON CONFLICT (installation_id) DO UPDATE SET bytes = s.bytes + EXCLUDED.bytes;
END $$;

-- The same for transactions (activity: quarters, zone days, terminal hours, last exchanges; then
-- the day counts; then the storage).
CREATE OR REPLACE FUNCTION transaction_logs_added(installation uuid, ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  dates timestamptz[];
  errs smallint[];
  terminals text[];
  sizes bigint[];
BEGIN
  IF cardinality(ids) = 0 THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock_shared(activity_zone_lock_key(installation));
  SELECT array_agg(date_heure_trt), array_agg(err), array_agg(id_tablette), array_agg(bytes)
  INTO dates, errs, terminals, sizes
  FROM (SELECT installation_id, date_heure_trt, err, id_tablette, octet_length(log) AS bytes
        FROM transaction_logs WHERE id = ANY (ids) OFFSET 0) by_id
  WHERE installation_id = installation;
  IF dates IS NULL THEN RETURN; END IF;

  INSERT INTO transaction_log_quarter_counts AS c (installation_id, quarter, total, errors)
  SELECT installation, quarter_of(r.d), count(*), count(*) FILTER (WHERE r.e = 1)
  FROM unnest(dates, errs) AS r(d, e) GROUP BY 2 ORDER BY 2
  ON CONFLICT (installation_id, quarter)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;

  INSERT INTO transaction_log_zone_day_counts AS c (installation_id, day, total)
  SELECT installation, (r.d AT TIME ZONE z.zone)::date, count(*)
  FROM unnest(dates) AS r(d) JOIN activity_zone z ON z.installation_id = installation
  GROUP BY 2 ORDER BY 2
  ON CONFLICT (installation_id, day) DO UPDATE SET total = c.total + EXCLUDED.total;

  INSERT INTO terminal_hour_counts AS c (installation_id, id_tablette, hour, total, errors)
  SELECT installation, r.t, date_trunc('hour', r.d, 'UTC'), count(*), count(*) FILTER (WHERE r.e = 1)
  FROM unnest(dates, errs, terminals) AS r(d, e, t) GROUP BY 2, 3 ORDER BY 2, 3
  ON CONFLICT (installation_id, id_tablette, hour)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;

  INSERT INTO terminal_last_exchange AS c (installation_id, id_tablette, last_at, total, errors)
  SELECT installation, r.t, max(r.d), count(*), count(*) FILTER (WHERE r.e = 1)
  FROM unnest(dates, errs, terminals) AS r(d, e, t) GROUP BY 2 ORDER BY 2
  ON CONFLICT (installation_id, id_tablette)
  DO UPDATE SET last_at = greatest(c.last_at, EXCLUDED.last_at),
    total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;

  INSERT INTO transaction_log_day_counts AS c (installation_id, day, total, errors)
  SELECT installation, (r.d AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE r.e = 1)
  FROM unnest(dates, errs) AS r(d, e) GROUP BY 2 ORDER BY 2
  ON CONFLICT (installation_id, day)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;

  INSERT INTO installation_storage AS s (installation_id, bytes)
  SELECT installation, sum(r.b) FROM unnest(sizes) AS r(b)
  ON CONFLICT (installation_id) DO UPDATE SET bytes = s.bytes + EXCLUDED.bytes;
END $$;
