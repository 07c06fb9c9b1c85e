import type { Queryable } from '../../src/db/types.ts';

/** The versions of an installation's history that still have their text, oldest first. */
export async function versionsWithText(db: Queryable, installationId: string): Promise<number[]> {
  const rows = await db.query<{ version: number }>(
    'SELECT version FROM configuration_versions WHERE installation_id = $1 AND (text IS NOT NULL OR text_id IS NOT NULL) ORDER BY version',
    [installationId],
  );
  return rows.map((r) => r.version);
}

/** Every version row of an installation's history (with or without its text), oldest first. */
export async function versionRows(db: Queryable, installationId: string): Promise<number[]> {
  const rows = await db.query<{ version: number }>(
    'SELECT version FROM configuration_versions WHERE installation_id = $1 ORDER BY version',
    [installationId],
  );
  return rows.map((r) => r.version);
}
