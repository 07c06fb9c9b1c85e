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
