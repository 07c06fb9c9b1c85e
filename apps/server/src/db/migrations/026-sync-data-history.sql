-- The data to sync that have had a history (Histo above 0) in a version of the installation's
-- configuration. A document without ElementsSync (the real fixture has none) does not say which
-- items can have a history; the screen offers the field to those that have one, and, with this
-- table, to those that had one: a history cleared to 0 and saved can be set again
-- (domain/sync-data-history.ts). Written by the one write path of configurations.
CREATE TABLE sync_data_history_refs (
  installation_id uuid NOT NULL REFERENCES installations (id) ON DELETE CASCADE,
  reference text NOT NULL,
  PRIMARY KEY (installation_id, reference)
);
