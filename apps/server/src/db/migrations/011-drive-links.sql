-- The drive link of an installation (« Connecter », Drive pour la GED; docs/mail.md, Drive): its
-- OAuth refresh token is a secret of the installation, kept here rather than in the configuration
-- XML (whose versions are kept and shown), sealed with AES-256-GCM under a key derived from
-- SESSION_SECRET, never sent to the browser, the logs, the history or an export.
CREATE TABLE drive_links (
  installation_id uuid PRIMARY KEY REFERENCES installations (id) ON DELETE CASCADE,
  provider text NOT NULL CHECK (provider IN ('google', 'onedrive')),
  -- The account's address (id token), shown as « Connecté : compte … ».
  account text NOT NULL DEFAULT '',
  refresh_token bytea NOT NULL,
  -- The newest short-lived access token given to the connector, and when it expires.
  access_token bytea,
  access_expires_at timestamptz,
  -- connected, or revoked (the provider answered invalid_grant: connect again).
  state text NOT NULL DEFAULT 'connected' CHECK (state IN ('connected', 'revoked')),
  connected_at timestamptz NOT NULL,
  refreshed_at timestamptz
);

-- Authorisation requests on their way (the OAuth `state`): single use, 10 minutes, bound to the
-- installation and the browser session that started them; the PKCE verifier sealed.
CREATE TABLE drive_authorizations (
  state_hash text PRIMARY KEY,
  installation_id uuid NOT NULL REFERENCES installations (id) ON DELETE CASCADE,
  session_hash text NOT NULL,
  provider text NOT NULL CHECK (provider IN ('google', 'onedrive')),
  code_verifier bytea NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX drive_authorizations_created_idx ON drive_authorizations (created_at);
