-- Sign-in throttling (docs/security.md, Sign-in): one counter row per key instead of one row per
-- failure. An attempt is counted by one upsert BEFORE its client id is checked, and the upsert
-- returns the count including it: parallel attempts (in one process or several) each see the
-- others, so N guesses at once count N. Attempts refused by the throttle and successful sign-ins
-- are taken back off.
CREATE TABLE login_throttle (
  key text PRIMARY KEY,
  -- Start of the current 15-minute window; a count in an older window starts again at 1.
  window_start timestamptz NOT NULL,
  attempts integer NOT NULL
);
CREATE INDEX login_throttle_window_idx ON login_throttle (window_start);

DROP TABLE login_attempts;
