-- The import history and the transaction trace at a million rows per installation
-- (docs/history.md): search indexes, error indexes, and per-installation counters by UTC day kept
-- by statement-level triggers.

-- Search folding: accents and ligatures removed (the unaccent dictionary: é → e, œ → oe,
-- ß → ss), then lower case. unaccent is a dictionary lookup in C, about 1 µs a row; the pure-SQL
-- translate() it replaces cost 30 µs a row on every insert (docs/history.md, Search). The function
-- names its dictionary, so it is immutable in practice (declared so: an index and a generated
-- column are built on it); the search term is folded by the same function.
CREATE EXTENSION IF NOT EXISTS unaccent SCHEMA public;
CREATE FUNCTION history_fold(value text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN lower(public.unaccent('public.unaccent'::regdictionary, value));

-- The searched text of a record: reference, record type, processing type. The unit separator
-- keeps a term from matching across two fields.
CREATE FUNCTION import_record_search_text(ref_doc text, type_enreg text, type_element text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN history_fold(ref_doc || chr(31) || type_enreg || chr(31) || type_element);

-- The searched text of a transaction: document type, terminal id and label, document reference,
-- transaction number.
CREATE FUNCTION transaction_log_search_text(
  type_doc text, id_tablette text, libelle_tablette text, ref_doc text, num_transaction text
) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN history_fold(
  type_doc || chr(31) || id_tablette || chr(31) || libelle_tablette || chr(31) || ref_doc || chr(31) || num_transaction
);

-- The folded text is stored (a generated column, computed once per row on insert): the trigram
-- index is built on it and a search re-checks candidate rows against it with a plain LIKE,
-- instead of folding each row's text again (folding costs tens of µs a row: docs/history.md).
ALTER TABLE import_records ADD COLUMN search_text text NOT NULL
  GENERATED ALWAYS AS (import_record_search_text(ref_doc, type_enreg, type_element)) STORED;
ALTER TABLE transaction_logs ADD COLUMN search_text text NOT NULL
  GENERATED ALWAYS AS (
    transaction_log_search_text(type_doc, id_tablette, libelle_tablette, ref_doc, num_transaction)
  ) STORED;

-- A rare term: the trigram index finds its few rows.
CREATE INDEX import_records_search_idx ON import_records USING gin (search_text gin_trgm_ops);
CREATE INDEX transaction_logs_search_idx ON transaction_logs USING gin (search_text gin_trgm_ops);

-- Newest first, the folded text included: a common term ("devis") is found walking the
-- installation's entries newest first and its bounded count is read from the index alone (a few
-- MB), never from the rows (their XML makes them fat). They replace 002's newest-first indexes
-- (same keys; every list page, day range and keyset cursor uses them).
DROP INDEX import_records_newest_idx;
CREATE INDEX import_records_newest_idx ON import_records (installation_id, date_heure DESC, id DESC)
  INCLUDE (search_text);
DROP INDEX transaction_logs_newest_idx;
CREATE INDEX transaction_logs_newest_idx ON transaction_logs (installation_id, date_heure_trt DESC, id DESC)
  INCLUDE (search_text);

-- Errors only, newest first (about 1 % of the rows).
CREATE INDEX import_records_errors_idx ON import_records (installation_id, date_heure DESC, id DESC)
  INCLUDE (search_text) WHERE etat = -1;
CREATE INDEX transaction_logs_errors_idx ON transaction_logs (installation_id, date_heure_trt DESC, id DESC)
  INCLUDE (search_text) WHERE err = 1;

-- Rows and errors per installation and UTC day. The total of a list is the sum of its
-- installation's days (about 1 100 rows for 3 years), and a page far from both ends starts in the
-- day where the running sum reaches its offset.
CREATE TABLE import_record_day_counts (
  installation_id uuid NOT NULL REFERENCES installations (id) ON DELETE CASCADE,
  day date NOT NULL,
  total integer NOT NULL,
  errors integer NOT NULL,
  PRIMARY KEY (installation_id, day)
);

CREATE TABLE transaction_log_day_counts (
  installation_id uuid NOT NULL REFERENCES installations (id) ON DELETE CASCADE,
  day date NOT NULL,
  total integer NOT NULL,
  errors integer NOT NULL,
  PRIMARY KEY (installation_id, day)
);

-- One statement, one grouped upsert (transition tables): a batch of 500 records adds a few rows'
-- worth of work, not one per record.
CREATE FUNCTION import_records_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO import_record_day_counts AS c (installation_id, day, total, errors)
  SELECT installation_id, (date_heure AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE etat = -1)
  FROM new_rows GROUP BY 1, 2
  ON CONFLICT (installation_id, day)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  RETURN NULL;
END $$;

-- Deleting an installation deletes its counters and its rows in no set order: a plain UPDATE
-- (never an insert) finds nothing left to change then.
CREATE FUNCTION import_records_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE import_record_day_counts c SET total = c.total - d.total, errors = c.errors - d.errors
  FROM (
    SELECT installation_id, (date_heure AT TIME ZONE 'UTC')::date AS day,
           count(*)::int AS total, (count(*) FILTER (WHERE etat = -1))::int AS errors
    FROM old_rows GROUP BY 1, 2
  ) d
  WHERE c.installation_id = d.installation_id AND c.day = d.day;
  RETURN NULL;
END $$;

-- An update counts only when it changes the state or the time (the status route, a re-dated
-- record); any other update (a log, a file) finds no difference.
CREATE FUNCTION import_records_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
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
  HAVING sum(total) <> 0 OR sum(errors) <> 0
  ON CONFLICT (installation_id, day)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  RETURN NULL;
END $$;

CREATE TRIGGER import_records_count_insert AFTER INSERT ON import_records
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION import_records_count_insert();
CREATE TRIGGER import_records_count_delete AFTER DELETE ON import_records
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION import_records_count_delete();
CREATE TRIGGER import_records_count_update AFTER UPDATE ON import_records
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION import_records_count_update();

CREATE FUNCTION transaction_logs_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO transaction_log_day_counts AS c (installation_id, day, total, errors)
  SELECT installation_id, (date_heure_trt AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE err = 1)
  FROM new_rows GROUP BY 1, 2
  ON CONFLICT (installation_id, day)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  RETURN NULL;
END $$;

CREATE FUNCTION transaction_logs_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE transaction_log_day_counts c SET total = c.total - d.total, errors = c.errors - d.errors
  FROM (
    SELECT installation_id, (date_heure_trt AT TIME ZONE 'UTC')::date AS day,
           count(*)::int AS total, (count(*) FILTER (WHERE err = 1))::int AS errors
    FROM old_rows GROUP BY 1, 2
  ) d
  WHERE c.installation_id = d.installation_id AND c.day = d.day;
  RETURN NULL;
END $$;

CREATE FUNCTION transaction_logs_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
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
  HAVING sum(total) <> 0 OR sum(errors) <> 0
  ON CONFLICT (installation_id, day)
  DO UPDATE SET total = c.total + EXCLUDED.total, errors = c.errors + EXCLUDED.errors;
  RETURN NULL;
END $$;

CREATE TRIGGER transaction_logs_count_insert AFTER INSERT ON transaction_logs
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_logs_count_insert();
CREATE TRIGGER transaction_logs_count_delete AFTER DELETE ON transaction_logs
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_logs_count_delete();
CREATE TRIGGER transaction_logs_count_update AFTER UPDATE ON transaction_logs
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_logs_count_update();

-- Rows already stored (a database migrated with history in it) are counted once here.
INSERT INTO import_record_day_counts (installation_id, day, total, errors)
SELECT installation_id, (date_heure AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE etat = -1)
FROM import_records GROUP BY 1, 2;
INSERT INTO transaction_log_day_counts (installation_id, day, total, errors)
SELECT installation_id, (date_heure_trt AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE err = 1)
FROM transaction_logs GROUP BY 1, 2;
