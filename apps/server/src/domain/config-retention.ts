import type { VersionRetention } from '../config/env.ts';
import type { Queryable } from '../db/types.ts';

/**
 * How long old configuration versions are kept (VersionRetention, read with the rest of the
 * environment in config/env.ts). Every version holds the whole document, its passwords included:
 * a password replaced long ago must not stay in the database forever. A version is kept while it
 * is among the newest `keep` of its installation and younger than `maxAgeDays`; the current
 * version and the one it replaced (the repair's backup) always stay. Old versions serve only the
 * conflict check of a save made from an older screen (If-Match): a pruned one answers 409, never
 * a wrong merge.
 */

/** Deletes the versions of an installation the retention no longer keeps; returns how many. */
export async function pruneVersions(
  tx: Queryable,
  installationId: string,
  currentVersion: number,
  retention: VersionRetention,
): Promise<number> {
  const deleted = await tx.query(
    `DELETE FROM configuration_versions
     WHERE installation_id = $1 AND version < $2 - 1
       AND (version <= $2 - $3 OR created_at < now() - make_interval(days => $4))
     RETURNING version`,
    [installationId, currentVersion, retention.keep, retention.maxAgeDays],
  );
  return deleted.length;
}
