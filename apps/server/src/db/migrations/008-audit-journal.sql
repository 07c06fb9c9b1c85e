-- The audit journal on screen (docs/audit.md): each row gets its kind (filter), its outcome
-- (« échecs uniquement ») and a folded search text (written by the application: the French label
-- of the action and the values of its details, folded by history_fold of migration 004); day
-- counters per kind kept by statement triggers, as for the history lists (docs/history.md), so
-- that totals and far pages never scan a million rows.
ALTER TABLE audit_log ADD COLUMN kind text NOT NULL DEFAULT 'autre';
ALTER TABLE audit_log ADD COLUMN outcome text NOT NULL DEFAULT 'success'
  CHECK (outcome IN ('success', 'failure', 'refused'));
ALTER TABLE audit_log ADD COLUMN search_text text NOT NULL DEFAULT '';

UPDATE audit_log SET
  kind = CASE
    WHEN action LIKE 'login%' OR action = 'logout' THEN 'connexion'
    WHEN action = 'config.connector-write' OR action LIKE 'automate.%' THEN 'connecteur'
    WHEN action LIKE 'config.%' THEN 'configuration'
    WHEN action LIKE 'sync-automate.%' THEN 'synchronisation'
    WHEN action LIKE '%.export' THEN 'export'
    WHEN action LIKE 'history.%' AND action <> 'history.seed' THEN 'historique'
    WHEN action LIKE 'installation.%' OR action = 'history.seed' THEN 'administration'
    ELSE 'autre' END,
  outcome = CASE
    WHEN action = 'login.failure' THEN 'failure'
    WHEN action = 'login.refused' THEN 'refused'
    WHEN action = 'sync-automate.request' AND coalesce(details ->> 'outcome', '') <> 'accepted' THEN 'failure'
    ELSE 'success' END,
  search_text = history_fold(action || chr(31) || coalesce(address, '') || chr(31) || coalesce(details::text, ''));

DROP INDEX audit_log_installation_idx;
CREATE INDEX audit_log_newest_idx ON audit_log (installation_id, at DESC, id DESC) INCLUDE (search_text);
CREATE INDEX audit_log_kind_idx ON audit_log (installation_id, kind, at DESC, id DESC) INCLUDE (search_text);
CREATE INDEX audit_log_errors_idx ON audit_log (installation_id, at DESC, id DESC)
  INCLUDE (search_text) WHERE outcome <> 'success';
CREATE INDEX audit_log_search_idx ON audit_log USING gin (search_text gin_trgm_ops);
-- The retention (AUDIT_RETENTION_DAYS) deletes the oldest rows of every installation.
CREATE INDEX audit_log_at_idx ON audit_log (at);

CREATE TABLE audit_log_day_counts (
  installation_id uuid NOT NULL REFERENCES installations (id) ON DELETE CASCADE,
  day date NOT NULL,
  kind text NOT NULL,
  total integer NOT NULL,
  errors integer NOT NULL,
  PRIMARY KEY (installation_id, day, kind)
);

INSERT INTO audit_log_day_counts (installation_id, day, kind, total, errors)
SELECT installation_id, (at AT TIME ZONE 'UTC')::date, kind, count(*), count(*) FILTER (WHERE outcome <> 'success')
FROM audit_log WHERE installation_id IS NOT NULL GROUP BY 1, 2, 3;

CREATE FUNCTION audit_log_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit_log_day_counts AS c (installation_id, day, kind, total, errors)
  SELECT installation_id, (at AT TIME ZONE 'UTC')::date, kind, count(*), count(*) FILTER (WHERE outcome <> 'success')
  FROM new_rows WHERE installation_id IS NOT NULL GROUP BY 1, 2, 3
  ON CONFLICT (installation_id, day, kind)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  RETURN NULL;
END $$;

-- Rows are only ever deleted by the retention (and their installation set to NULL when an
-- installation is deleted, which the counters follow by cascade).
CREATE FUNCTION audit_log_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE audit_log_day_counts c SET total = c.total - d.total, errors = c.errors - d.errors
  FROM (
    SELECT installation_id, (at AT TIME ZONE 'UTC')::date AS day, kind,
           count(*)::int AS total, (count(*) FILTER (WHERE outcome <> 'success'))::int AS errors
    FROM old_rows WHERE installation_id IS NOT NULL GROUP BY 1, 2, 3
  ) d
  WHERE c.installation_id = d.installation_id AND c.day = d.day AND c.kind = d.kind;
  RETURN NULL;
END $$;

CREATE TRIGGER audit_log_count_insert AFTER INSERT ON audit_log
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION audit_log_count_insert();
CREATE TRIGGER audit_log_count_delete AFTER DELETE ON audit_log
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION audit_log_count_delete();
