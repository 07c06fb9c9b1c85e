-- The connector link: automate registrations, sync orders, import records (and their files),
-- transactions. Indexes for the history and trace screens (search, errors, counters) come in 004.

-- The newest report of an installation's automate service (one row, replaced at each report).
CREATE TABLE automate_registrations (
  installation_id uuid PRIMARY KEY REFERENCES installations (id) ON DELETE CASCADE,
  ip text NOT NULL,
  port integer NOT NULL CHECK (port BETWEEN 1 AND 65535),
  version text NOT NULL DEFAULT '',
  machine_name text NOT NULL DEFAULT '',
  first_reported_at timestamptz NOT NULL DEFAULT now(),
  reported_at timestamptz NOT NULL DEFAULT now()
);

-- Sync orders sent to the automate. At most one unfinished order per installation (the partial
-- unique index is the lock shared by every server process); an order left unfinished by a crashed
-- process is closed by the next one once it is older than the order timeout.
CREATE TABLE sync_orders (
  id uuid PRIMARY KEY,
  installation_id uuid NOT NULL REFERENCES installations (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('C', 'R', 'I')),
  requested_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  outcome text,
  ret_sync smallint,
  address text
);
CREATE UNIQUE INDEX sync_orders_in_flight_idx ON sync_orders (installation_id) WHERE finished_at IS NULL;
CREATE INDEX sync_orders_installation_time_idx ON sync_orders (installation_id, requested_at DESC);

-- Records captured on the terminals. Short text columns hold the decoded text (display, search,
-- CSV); id_interne, enreg and log are kept as the connector sent them (its text convention).
CREATE TABLE import_records (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  installation_id uuid NOT NULL REFERENCES installations (id) ON DELETE CASCADE,
  id_interne text NOT NULL,
  type_enreg text NOT NULL DEFAULT '',
  ref_doc text NOT NULL DEFAULT '',
  date_heure timestamptz NOT NULL,
  num_ligne integer NOT NULL DEFAULT 0,
  type_element text NOT NULL DEFAULT '',
  etat smallint NOT NULL DEFAULT 0 CHECK (etat IN (-1, 0, 1)),
  log text NOT NULL DEFAULT '',
  enreg text NOT NULL,
  has_file boolean NOT NULL DEFAULT false,
  received_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (installation_id, id_interne)
);
-- Newest first per installation (list pages, date ranges).
CREATE INDEX import_records_newest_idx ON import_records (installation_id, date_heure DESC, id DESC);
-- The connector's import queue: Etat 0, oldest first.
CREATE INDEX import_records_queue_idx ON import_records (installation_id, date_heure, id) WHERE etat = 0;

-- The file an import produced or carried (Fichier), apart from the row.
CREATE TABLE import_record_files (
  record_id bigint PRIMARY KEY REFERENCES import_records (id) ON DELETE CASCADE,
  name text NOT NULL,
  size integer NOT NULL,
  content bytea NOT NULL
);

-- The trace of the exchanges with the terminals. tx_id is the connector's ID.
CREATE TABLE transaction_logs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  installation_id uuid NOT NULL REFERENCES installations (id) ON DELETE CASCADE,
  tx_id text NOT NULL,
  err smallint NOT NULL DEFAULT 0,
  date_heure_trt timestamptz NOT NULL,
  num_transaction text NOT NULL DEFAULT '',
  type_doc text NOT NULL DEFAULT '',
  ref_doc text NOT NULL DEFAULT '',
  id_tablette text NOT NULL DEFAULT '',
  libelle_tablette text NOT NULL DEFAULT '',
  log text NOT NULL DEFAULT '',
  received_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (installation_id, tx_id)
);
CREATE INDEX transaction_logs_newest_idx ON transaction_logs (installation_id, date_heure_trt DESC, id DESC);
