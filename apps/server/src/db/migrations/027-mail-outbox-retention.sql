-- The retention of the outbox (domain/mail-retention.ts, MAIL_RETENTION_DAYS): finished emails
-- (sent, failed for good, kept unsent without a relay), oldest first, every installation. Rows
-- still to send are not in this index and are never deleted.
CREATE INDEX mail_outbox_finished_idx ON mail_outbox (created_at)
  WHERE state IN ('sent', 'failed', 'unconfigured');
