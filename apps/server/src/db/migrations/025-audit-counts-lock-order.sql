-- The audit journal's deletion trigger takes its day counters in key order, as the history's do
-- since 023 and 024.
--
-- The audit retention (AUDIT_RETENTION_DAYS) deletes the oldest rows of every installation in
-- batches, and every server process runs it (`FOR UPDATE SKIP LOCKED` shares the rows out): two
-- batches of the same days then decrement the same counter rows, each in the order of its hash
-- aggregate, and could stop each other (a deadlock: one pass fails after `deadlock_timeout`). The
-- groups are now read once into arrays, locked by a sorted `SELECT … FOR UPDATE`, then updated:
-- still an `UPDATE`, never an upsert (a deletion must not create a counter row).
--
-- `plan_cache_mode = force_generic_plan`, as in 024: each group is looked up by primary key from a
-- connection's first deletion on, whatever the number of groups and the table's size.

CREATE OR REPLACE FUNCTION audit_log_count_delete() RETURNS trigger LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  installation_ids uuid[];
  days date[];
  kinds text[];
  totals int[];
  error_counts int[];
BEGIN
  SELECT array_agg(installation_id), array_agg(day), array_agg(kind), array_agg(total), array_agg(errs)
  INTO installation_ids, days, kinds, totals, error_counts
  FROM (SELECT installation_id, (at AT TIME ZONE 'UTC')::date AS day, kind,
               count(*)::int AS total, (count(*) FILTER (WHERE outcome <> 'success'))::int AS errs
        FROM old_rows WHERE installation_id IS NOT NULL GROUP BY 1, 2, 3) d;
  PERFORM 1 FROM audit_log_day_counts c JOIN unnest(installation_ids, days, kinds) d(i, k, n)
    ON c.installation_id = d.i AND c.day = d.k AND c.kind = d.n
    ORDER BY c.installation_id, c.day, c.kind FOR UPDATE OF c;
  UPDATE audit_log_day_counts c SET total = c.total - d.t, errors = c.errors - d.e
  FROM unnest(installation_ids, days, kinds, totals, error_counts) d(i, k, n, t, e)
  WHERE c.installation_id = d.i AND c.day = d.k AND c.kind = d.n;
  RETURN NULL;
END $$;
