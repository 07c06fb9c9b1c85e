-- The connector API v1 (docs/connector-api.md): its rate-limit counters, and the short texts of an
-- import record as the connector sent them when they are not in its own convention.

-- Requests per installation and route group in the current window (fixed windows). Shared by every
-- server process: one upsert per request.
CREATE TABLE connector_rate_limits (
  installation_id uuid NOT NULL REFERENCES installations (id) ON DELETE CASCADE,
  bucket text NOT NULL,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (installation_id, bucket)
);

-- type_enreg, ref_doc and type_element hold the decoded text. Encoding it again gives back what
-- the connector sent whenever that was in its convention; otherwise (accents typed in clear) the
-- sent texts are kept here ({"TypeElement": "Création"}) so that the import queue gives them back
-- unchanged. NULL for almost every row.
ALTER TABLE import_records ADD COLUMN sent_texts jsonb;

-- The record XML (about 2 KB to 50 MB) is compressed by TOAST: lz4 does it several times faster
-- than the default pglz (ingestion of 2 KB records about 1.3× faster, bench/README.md). PGlite is
-- built without lz4: pglz stays there. Attached files (PDF, PNG) are compressed already: stored
-- without a second attempt.
DO $$
BEGIN
  ALTER TABLE import_records ALTER COLUMN enreg SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END $$;
ALTER TABLE import_record_files ALTER COLUMN content SET STORAGE EXTERNAL;
