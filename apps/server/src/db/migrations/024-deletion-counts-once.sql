-- A deletion's counter triggers group the deleted rows once per counter table instead of twice,
-- and find their counter rows by key from a connection's first deletion on.
--
-- Since 023 each decrement first locked its counter rows in key order (a sorted `SELECT … FOR
-- UPDATE`) and then updated them, and both statements grouped the transition table anew: a deletion
-- of 2 000 rows cost 17 % (records) and 23 % (transactions) more than before 023. Now the groups are
-- read once into arrays (as the batch counters of 022 read a batch's rows), which the lock and the
-- update both join: the same rows locked in the same order, the same counts subtracted, and an
-- `UPDATE`, never an upsert: a deletion must not create a counter row (an installation being
-- deleted may have lost its counters already).
--
-- `plan_cache_mode = force_generic_plan`: plpgsql plans a statement's first five calls for the
-- arrays it is given, and for 1 200 groups (2 000 transactions of 25 terminals) PostgreSQL took the
-- terminals' hours by a hash join over the whole table, every installation's rows (40 ms of 72 000
-- rows, against 8 ms by key). The generic plan, which it kept from the sixth call on, looks each
-- group up by primary key whatever the table's size. The other functions of 023 are unchanged.

CREATE OR REPLACE FUNCTION import_records_activity_delete() RETURNS trigger LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  installation_ids uuid[];
  quarters timestamptz[];
  days date[];
  etats smallint[];
  totals int[];
  error_counts int[];
  counts bigint[];
BEGIN
  PERFORM pg_advisory_xact_lock_shared(activity_zone_lock_key(installation_id))
  FROM (SELECT DISTINCT installation_id FROM old_rows) i;

  SELECT array_agg(installation_id), array_agg(quarter), array_agg(total), array_agg(errs)
  INTO installation_ids, quarters, totals, error_counts
  FROM (SELECT installation_id, quarter_of(date_heure) AS quarter,
               count(*)::int AS total, (count(*) FILTER (WHERE etat = -1))::int AS errs
        FROM old_rows GROUP BY 1, 2) d;
  PERFORM 1 FROM import_record_quarter_counts c JOIN unnest(installation_ids, quarters) d(i, q)
    ON c.installation_id = d.i AND c.quarter = d.q
    ORDER BY c.installation_id, c.quarter FOR UPDATE OF c;
  UPDATE import_record_quarter_counts c SET total = c.total - d.t, errors = c.errors - d.e
  FROM unnest(installation_ids, quarters, totals, error_counts) d(i, q, t, e)
  WHERE c.installation_id = d.i AND c.quarter = d.q;

  SELECT array_agg(installation_id), array_agg(day), array_agg(total), array_agg(errs)
  INTO installation_ids, days, totals, error_counts
  FROM (SELECT o.installation_id, (o.date_heure AT TIME ZONE z.zone)::date AS day,
               count(*)::int AS total, (count(*) FILTER (WHERE o.etat = -1))::int AS errs
        FROM old_rows o JOIN activity_zone z ON z.installation_id = o.installation_id GROUP BY 1, 2) d;
  PERFORM 1 FROM import_record_zone_day_counts c JOIN unnest(installation_ids, days) d(i, k)
    ON c.installation_id = d.i AND c.day = d.k
    ORDER BY c.installation_id, c.day FOR UPDATE OF c;
  UPDATE import_record_zone_day_counts c SET total = c.total - d.t, errors = c.errors - d.e
  FROM unnest(installation_ids, days, totals, error_counts) d(i, k, t, e)
  WHERE c.installation_id = d.i AND c.day = d.k;

  SELECT array_agg(installation_id), array_agg(etat), array_agg(n)
  INTO installation_ids, etats, counts
  FROM (SELECT installation_id, etat, count(*) AS n FROM old_rows GROUP BY 1, 2) d;
  PERFORM 1 FROM import_record_state_counts c JOIN unnest(installation_ids, etats) d(i, s)
    ON c.installation_id = d.i AND c.etat = d.s
    ORDER BY c.installation_id, c.etat FOR UPDATE OF c;
  UPDATE import_record_state_counts c SET n = c.n - d.n
  FROM unnest(installation_ids, etats, counts) d(i, s, n)
  WHERE c.installation_id = d.i AND c.etat = d.s;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION import_records_count_delete() RETURNS trigger LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  installation_ids uuid[];
  days date[];
  totals int[];
  error_counts int[];
BEGIN
  SELECT array_agg(installation_id), array_agg(day), array_agg(total), array_agg(errs)
  INTO installation_ids, days, totals, error_counts
  FROM (SELECT installation_id, (date_heure AT TIME ZONE 'UTC')::date AS day,
               count(*)::int AS total, (count(*) FILTER (WHERE etat = -1))::int AS errs
        FROM old_rows GROUP BY 1, 2) d;
  PERFORM 1 FROM import_record_day_counts c JOIN unnest(installation_ids, days) d(i, k)
    ON c.installation_id = d.i AND c.day = d.k
    ORDER BY c.installation_id, c.day FOR UPDATE OF c;
  UPDATE import_record_day_counts c SET total = c.total - d.t, errors = c.errors - d.e
  FROM unnest(installation_ids, days, totals, error_counts) d(i, k, t, e)
  WHERE c.installation_id = d.i AND c.day = d.k;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION transaction_logs_activity_delete() RETURNS trigger LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  installation_ids uuid[];
  quarters timestamptz[];
  days date[];
  terminals text[];
  hours timestamptz[];
  totals int[];
  error_counts int[];
  terminal_totals bigint[];
  terminal_errors bigint[];
BEGIN
  PERFORM pg_advisory_xact_lock_shared(activity_zone_lock_key(installation_id))
  FROM (SELECT DISTINCT installation_id FROM old_rows) i;

  SELECT array_agg(installation_id), array_agg(quarter), array_agg(total), array_agg(errs)
  INTO installation_ids, quarters, totals, error_counts
  FROM (SELECT installation_id, quarter_of(date_heure_trt) AS quarter,
               count(*)::int AS total, (count(*) FILTER (WHERE err = 1))::int AS errs
        FROM old_rows GROUP BY 1, 2) d;
  PERFORM 1 FROM transaction_log_quarter_counts c JOIN unnest(installation_ids, quarters) d(i, q)
    ON c.installation_id = d.i AND c.quarter = d.q
    ORDER BY c.installation_id, c.quarter FOR UPDATE OF c;
  UPDATE transaction_log_quarter_counts c SET total = c.total - d.t, errors = c.errors - d.e
  FROM unnest(installation_ids, quarters, totals, error_counts) d(i, q, t, e)
  WHERE c.installation_id = d.i AND c.quarter = d.q;

  SELECT array_agg(installation_id), array_agg(day), array_agg(total)
  INTO installation_ids, days, totals
  FROM (SELECT o.installation_id, (o.date_heure_trt AT TIME ZONE z.zone)::date AS day, count(*)::int AS total
        FROM old_rows o JOIN activity_zone z ON z.installation_id = o.installation_id GROUP BY 1, 2) d;
  PERFORM 1 FROM transaction_log_zone_day_counts c JOIN unnest(installation_ids, days) d(i, k)
    ON c.installation_id = d.i AND c.day = d.k
    ORDER BY c.installation_id, c.day FOR UPDATE OF c;
  UPDATE transaction_log_zone_day_counts c SET total = c.total - d.t
  FROM unnest(installation_ids, days, totals) d(i, k, t)
  WHERE c.installation_id = d.i AND c.day = d.k;

  SELECT array_agg(installation_id), array_agg(id_tablette), array_agg(hour), array_agg(total), array_agg(errs)
  INTO installation_ids, terminals, hours, totals, error_counts
  FROM (SELECT installation_id, id_tablette, date_trunc('hour', date_heure_trt, 'UTC') AS hour,
               count(*)::int AS total, (count(*) FILTER (WHERE err = 1))::int AS errs
        FROM old_rows GROUP BY 1, 2, 3) d;
  PERFORM 1 FROM terminal_hour_counts c JOIN unnest(installation_ids, terminals, hours) d(i, tab, h)
    ON c.installation_id = d.i AND c.id_tablette = d.tab AND c.hour = d.h
    ORDER BY c.installation_id, c.id_tablette, c.hour FOR UPDATE OF c;
  UPDATE terminal_hour_counts c SET total = c.total - d.t, errors = c.errors - d.e
  FROM unnest(installation_ids, terminals, hours, totals, error_counts) d(i, tab, h, t, e)
  WHERE c.installation_id = d.i AND c.id_tablette = d.tab AND c.hour = d.h;

  -- The terminals' totals come from the hours' groups just read: one group per terminal and hour.
  SELECT array_agg(i), array_agg(tab), array_agg(t), array_agg(e)
  INTO installation_ids, terminals, terminal_totals, terminal_errors
  FROM (SELECT d.i, d.tab, sum(d.t) AS t, sum(d.e) AS e
        FROM unnest(installation_ids, terminals, totals, error_counts) d(i, tab, t, e) GROUP BY 1, 2) g;
  PERFORM 1 FROM terminal_last_exchange c JOIN unnest(installation_ids, terminals) d(i, tab)
    ON c.installation_id = d.i AND c.id_tablette = d.tab
    ORDER BY c.installation_id, c.id_tablette FOR UPDATE OF c;
  UPDATE terminal_last_exchange c SET total = c.total - d.t, errors = c.errors - d.e
  FROM unnest(installation_ids, terminals, terminal_totals, terminal_errors) d(i, tab, t, e)
  WHERE c.installation_id = d.i AND c.id_tablette = d.tab;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION transaction_logs_count_delete() RETURNS trigger LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  installation_ids uuid[];
  days date[];
  totals int[];
  error_counts int[];
BEGIN
  SELECT array_agg(installation_id), array_agg(day), array_agg(total), array_agg(errs)
  INTO installation_ids, days, totals, error_counts
  FROM (SELECT installation_id, (date_heure_trt AT TIME ZONE 'UTC')::date AS day,
               count(*)::int AS total, (count(*) FILTER (WHERE err = 1))::int AS errs
        FROM old_rows GROUP BY 1, 2) d;
  PERFORM 1 FROM transaction_log_day_counts c JOIN unnest(installation_ids, days) d(i, k)
    ON c.installation_id = d.i AND c.day = d.k
    ORDER BY c.installation_id, c.day FOR UPDATE OF c;
  UPDATE transaction_log_day_counts c SET total = c.total - d.t, errors = c.errors - d.e
  FROM unnest(installation_ids, days, totals, error_counts) d(i, k, t, e)
  WHERE c.installation_id = d.i AND c.day = d.k;
  RETURN NULL;
END $$;
