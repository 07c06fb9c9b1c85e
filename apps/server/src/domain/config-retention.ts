import type { VersionRetention } from '../config/env.ts';
import type { Queryable } from '../db/types.ts';
import { HAS_TEXT } from './configuration-texts.ts';
import { SESSION_ABSOLUTE_MS } from './sessions.ts';

/**
 * How long old configuration versions are kept (VersionRetention, read with the rest of the
 * environment in config/env.ts). A version's text holds the whole document, its passwords
 * included: a password replaced long ago must not stay in the database forever. Texts are kept
 * for the newest `keep` versions written by people (saves, repairs, restores: the connector's
 * status writes are counted apart and keep no text) younger than `maxAgeDays`, as long as the
 * texts kept, the newest first, take at most `maxBytes` as stored (`pg_column_size`: compressed,
 * read from the value's header without fetching it; a text written apart, its chunks' sizes): fifty saves of a 50 MB document would
 * otherwise keep gigabytes beside the installation's quota. The current version and the one it
 * replaced (the repair's backup) always keep theirs.
 *
 * A version whose text is pruned keeps its row (its scope generations, no secret) for as long as
 * a screen opened on it may still save: a session's absolute lifetime. Then the row goes too. The
 * history shows only versions with a text, and the connector's updates of that period.
 *
 * Each write applies it to its installation; a timed pass applies it to the installations nobody
 * writes to (config-retention-pass.ts).
 */

/** Rows without a text stay this long: no session, hence no screen, lives longer. */
export const SCOPES_KEPT_MS = SESSION_ABSOLUTE_MS;

/** Applies the retention to an installation's versions; returns how many texts and rows went. */
export async function pruneVersions(
  tx: Queryable,
  installationId: string,
  currentVersion: number,
  retention: VersionRetention,
): Promise<{ texts: number; rows: number }> {
  const texts = await tx.query(
    `UPDATE configuration_versions SET text = NULL, text_id = NULL
     WHERE installation_id = $1 AND version < $2 - 1 AND ${HAS_TEXT}
       AND (author = 'connector'
            OR created_at < now() - make_interval(days => $4)
            OR version < (SELECT coalesce(min(version), 0) FROM (
                 SELECT version FROM configuration_versions
                 WHERE installation_id = $1 AND author <> 'connector'
                 ORDER BY version DESC LIMIT $3) AS kept)
            OR version <= (SELECT coalesce(max(version), 0) FROM (
                 SELECT v.version, sum(coalesce(pg_column_size(v.text), t.bytes)) OVER (ORDER BY v.version DESC) AS total
                 FROM configuration_versions v LEFT JOIN configuration_texts t ON t.id = v.text_id
                 WHERE v.installation_id = $1 AND (v.text IS NOT NULL OR v.text_id IS NOT NULL)) AS sized
               WHERE total > $5))
     RETURNING version`,
    [installationId, currentVersion, retention.keep, retention.maxAgeDays, retention.maxBytes],
  );
  const rows = await tx.query(
    `DELETE FROM configuration_versions
     WHERE installation_id = $1 AND version < $2 - 1 AND NOT ${HAS_TEXT}
       AND created_at < now() - make_interval(secs => $3)
     RETURNING version`,
    [installationId, currentVersion, SCOPES_KEPT_MS / 1000],
  );
  return { texts: texts.length, rows: rows.length };
}
