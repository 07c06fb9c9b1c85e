-- Installations, their configuration and its history, sessions, login throttling, audit log.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE installations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  sync_id text NOT NULL UNIQUE CHECK (sync_id ~ '^[A-Z0-9]+$'),
  client_id_hash text NOT NULL,
  premium boolean NOT NULL DEFAULT false,
  options text NOT NULL DEFAULT '',
  software text NOT NULL DEFAULT '',
  suspended boolean NOT NULL DEFAULT false,
  expires_at timestamptz,
  connector_token_hash text UNIQUE,
  time_zone text NOT NULL DEFAULT 'Europe/Paris',
  time_zone_label text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE configurations (
  installation_id uuid PRIMARY KEY REFERENCES installations (id) ON DELETE CASCADE,
  text text NOT NULL,
  version integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE configuration_versions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  installation_id uuid NOT NULL REFERENCES installations (id) ON DELETE CASCADE,
  version integer NOT NULL,
  text text NOT NULL,
  author text NOT NULL CHECK (author IN ('admin', 'user', 'connector', 'repair', 'restore')),
  section text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (installation_id, version)
);

CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  installation_id uuid NOT NULL REFERENCES installations (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  address text
);
CREATE INDEX sessions_installation_idx ON sessions (installation_id);

CREATE TABLE login_attempts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  key text NOT NULL,
  attempted_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_attempts_key_time_idx ON login_attempts (key, attempted_at);

CREATE TABLE audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  installation_id uuid REFERENCES installations (id) ON DELETE SET NULL,
  sync_id text,
  actor text NOT NULL,
  action text NOT NULL,
  address text,
  details jsonb
);
CREATE INDEX audit_log_installation_idx ON audit_log (installation_id, at DESC);
