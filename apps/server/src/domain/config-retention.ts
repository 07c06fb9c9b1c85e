import type { Queryable } from '../db/types.ts';

/**
 * How long old configuration versions are kept. Every version holds the whole document, its
 * passwords included: a password replaced long ago must not stay in the database forever. A
 * version is kept while it is among the newest `keep` of its installation and younger than
 * `maxAgeDays`; the current version and the one it replaced (the repair's backup) always stay.
 * Old versions serve only the conflict check of a
 * save made from an older screen (If-Match): a pruned one answers 409, never a wrong merge.
 */
export interface VersionRetention {
  keep: number;
  maxAgeDays: number;
}

export const DEFAULT_VERSION_RETENTION: VersionRetention = { keep: 50, maxAgeDays: 90 };

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1)
    throw new Error(`${name} invalide : ${raw} (attendu : un nombre entier supérieur ou égal à 1).`);
  return Number(raw);
}

/** CONFIG_VERSIONS_KEEP (default 50) and CONFIG_VERSIONS_MAX_AGE_DAYS (default 90). */
export function readVersionRetention(env: NodeJS.ProcessEnv = process.env): VersionRetention {
  return {
    keep: positiveInteger(env, 'CONFIG_VERSIONS_KEEP', DEFAULT_VERSION_RETENTION.keep),
    maxAgeDays: positiveInteger(env, 'CONFIG_VERSIONS_MAX_AGE_DAYS', DEFAULT_VERSION_RETENTION.maxAgeDays),
  };
}

let fromEnv: VersionRetention | undefined;
/** The retention of this process (read once; the server reads it at start so a bad value stops it). */
export function versionRetention(): VersionRetention {
  fromEnv ??= readVersionRetention();
  return fromEnv;
}

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
