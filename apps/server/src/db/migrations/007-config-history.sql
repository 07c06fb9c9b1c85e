-- Configuration history (docs/config-history.md): what each version changed, for the history screen
-- and for the conflict check of saves made from an older screen.
--
-- text: NULL for the connector's status writes (the current text is in `configurations`; it is
--   copied here when a person's version, a repair or a restore replaces it: the backup), and for
--   versions whose text the retention pruned (their row stays a few days for `scopes`).
-- scopes: the scope generations (config-xml `scopeGenerations`): for each edit kind and each
--   terminal, the version in which what a console save owns last changed. A save from a screen
--   opened at version N is refused only when its own scope's generation moved since N.
-- summary: what the version changed, computed when it was written (sections and a French line per
--   section, or the connector's fields), so that the list never parses documents.
-- address: the address of the console session that wrote it (author 'user' and 'restore').
ALTER TABLE configuration_versions ALTER COLUMN text DROP NOT NULL;
ALTER TABLE configuration_versions ADD COLUMN scopes jsonb;
ALTER TABLE configuration_versions ADD COLUMN summary jsonb;
ALTER TABLE configuration_versions ADD COLUMN address text;
