-- Emails (docs/mail.md). Every email the console sends is a row of mail_outbox, written in the
-- same transaction as what caused it (a connector write, a batch, a sync order, a test), and sent
-- by the sender loop of a server process, which claims due rows with FOR UPDATE SKIP LOCKED and a
-- lease, so that several processes on one PostgreSQL never send a row twice and a restart loses
-- none.
CREATE TABLE mail_outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  installation_id uuid NOT NULL REFERENCES installations (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('sync-report', 'errors', 'import', 'automate-offline',
    'automate-online', 'order-refused', 'test')),
  -- The addresses (MailDestinataire when the row was written), separated by ', '.
  recipients text NOT NULL,
  -- What the email is about, captured when the row was written (an error digest gathers items
  -- here while its state is 'gathering'); rendered into the subject and bodies at its first send.
  facts jsonb NOT NULL DEFAULT '{}'::jsonb,
  subject text,
  text_body text,
  html_body text,
  -- gathering: an error digest still taking errors until due_at; pending: waiting for due_at;
  -- sending: claimed by a sender until lease_until; sent; failed (refused for good, or still
  -- failing 24 h after it was written); unconfigured (no SMTP_URL: kept to be read, never sent).
  state text NOT NULL CHECK (state IN ('gathering', 'pending', 'sending', 'sent', 'failed', 'unconfigured')),
  attempts integer NOT NULL DEFAULT 0,
  due_at timestamptz NOT NULL,
  lease_until timestamptz,
  -- The claim of the sender holding the row: only it records the outcome.
  claim text,
  last_error text,
  message_id text,
  created_at timestamptz NOT NULL,
  sent_at timestamptz
);
-- The sender's claim: due rows, oldest first.
CREATE INDEX mail_outbox_due_idx ON mail_outbox (due_at)
  WHERE state IN ('gathering', 'pending', 'sending');
-- « Courriels envoyés »: an installation's newest first; the test's rate limit.
CREATE INDEX mail_outbox_installation_idx ON mail_outbox (installation_id, id DESC);
CREATE INDEX mail_outbox_tests_idx ON mail_outbox (installation_id, created_at) WHERE kind = 'test';

-- What the notification rules remember per installation. Its row is locked (FOR UPDATE) by every
-- writer of the installation's emails, so that the grouping and the rate rules are exact across
-- processes.
CREATE TABLE mail_state (
  installation_id uuid PRIMARY KEY REFERENCES installations (id) ON DELETE CASCADE,
  -- The error digest gathering errors now (mail_outbox row in state 'gathering'), if any.
  gathering_id bigint,
  -- When the newest error digest was due: the next one is due 15 minutes later at the earliest.
  last_digest_due_at timestamptz,
  -- What arrived since the last sync report: imported and rejected records, transactions in error.
  sync_activity jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- The automate report whose silence was notified (offline): one email per silence.
  offline_noticed_for timestamptz
);
