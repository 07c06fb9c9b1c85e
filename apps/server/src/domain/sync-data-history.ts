import type { Queryable } from '../db/types.ts';

/**
 * The data to sync that have had a history in the installation's configuration (migration 026):
 * readSyncData of config-xml offers the history field to them even once cleared to 0, when the
 * document has no ElementsSync to say which items can have one.
 */

/** A reference longer than this is not kept (the real ones are under 40 characters). */
const MAX_REFERENCE_CHARS = 200;
/** At most this many references kept from one version (the real list holds about 60 items). */
const MAX_REFERENCES = 1000;

/** Keeps `references` (those of a version before a write) for the installation. */
export async function keepHistoryReferences(
  tx: Queryable,
  installationId: string,
  references: readonly string[],
): Promise<void> {
  const kept = [...new Set(references.filter((r) => r.length <= MAX_REFERENCE_CHARS))].slice(
    0,
    MAX_REFERENCES,
  );
  if (kept.length === 0) return;
  await tx.query(
    `INSERT INTO sync_data_history_refs (installation_id, reference)
     SELECT $1, r FROM unnest($2::text[]) AS r ON CONFLICT DO NOTHING`,
    [installationId, kept],
  );
}

/** The references kept for the installation. */
export async function historyReferences(db: Queryable, installationId: string): Promise<Set<string>> {
  const rows = await db.query<{ reference: string }>(
    'SELECT reference FROM sync_data_history_refs WHERE installation_id = $1',
    [installationId],
  );
  return new Set(rows.map((r) => r.reference));
}
