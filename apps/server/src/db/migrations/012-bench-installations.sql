-- Bench installations (docs/history.md, Seed): `seed-history` writes generated records and
-- transactions only into an installation marked as a bench one (`create-installation --bench`,
-- the neighbours the seed creates, the demo), unless forced. A real installation's connector
-- imports what its history holds into the customer's ERP: generated rows must never reach it.
ALTER TABLE installations ADD COLUMN bench boolean NOT NULL DEFAULT false;

-- The demo installation plays its history with the simulator: it is one.
UPDATE installations SET bench = true WHERE sync_id = 'DEMOA001';
