import type { VersionRetention } from '../config/env.ts';
import type { Db } from '../db/types.ts';
import { pruneVersions, SCOPES_KEPT_MS } from './config-retention.ts';
import { startPeriodicPass, type PeriodicPass } from './periodic-pass.ts';

/**
 * The timed pass of the configuration versions' retention (config-retention.ts). A write prunes
 * its installation's versions; an installation nobody writes to would keep its old versions, their
 * passwords included, for ever. This pass applies the same rule (pruneVersions, nothing else) to
 * every installation, a batch of installations at a time, with a pause between batches.
 *
 * Only the age limits depend on the time (CONFIG_VERSIONS_MAX_AGE_DAYS for texts, SCOPES_KEPT_MS
 * for the rows without one); the count and size limits change only when a version is written,
 * and the write applies them. So an installation is pruned only when its oldest version row
 * (one entry of the (installation_id, version) index) is older than the shorter of the two ages
 * and is not one of the two versions the rule always keeps: a version's time grows with its
 * number (writes of an installation are serialised; two waiting for each other may swap by the
 * length of the wait), so no older row can hide behind a younger one for longer than that.
 *
 * The current version is read without a lock: a write meanwhile only makes the pass keep more (its
 * current version is the one before, and its statements do not see the new version's row), never
 * less; the write then prunes by itself.
 */

export const CONFIG_RETENTION_BATCH = 200;

export interface ConfigRetentionOptions {
  /** Installations looked at per batch. */
  batch?: number;
  pauseMs?: number;
  /** Asked before each batch: true ends the pass (the server stopping). */
  stopped?: () => boolean;
}

export interface ConfigRetentionResult {
  /** Installations whose versions were pruned (their oldest row was due). */
  installations: number;
  /** Version texts removed, and version rows deleted. */
  texts: number;
  rows: number;
}

export async function pruneAllVersions(
  db: Db,
  retention: VersionRetention,
  options: ConfigRetentionOptions = {},
): Promise<ConfigRetentionResult> {
  const batch = options.batch ?? CONFIG_RETENTION_BATCH;
  const dueAfterSeconds = Math.min(retention.maxAgeDays * 86_400, SCOPES_KEPT_MS / 1000);
  const result: ConfigRetentionResult = { installations: 0, texts: 0, rows: 0 };
  let after: string | null = null;
  for (;;) {
    if (options.stopped?.()) return result;
    const page: { id: string; version: number; due: boolean }[] = await db.query(
      `SELECT c.installation_id::text AS id, c.version,
              coalesce(o.version < c.version - 1 AND o.created_at < now() - make_interval(secs => $2), false) AS due
       FROM configurations c
       LEFT JOIN LATERAL (
         SELECT v.version, v.created_at FROM configuration_versions v
         WHERE v.installation_id = c.installation_id ORDER BY v.version LIMIT 1
       ) o ON true
       ${after === null ? '' : 'WHERE c.installation_id > $3::uuid'}
       ORDER BY c.installation_id LIMIT $1`,
      after === null ? [batch, dueAfterSeconds] : [batch, dueAfterSeconds, after],
    );
    for (const { id, version, due } of page) {
      if (!due) continue;
      const pruned = await pruneVersions(db, id, version, retention);
      result.installations += 1;
      result.texts += pruned.texts;
      result.rows += pruned.rows;
    }
    const last = page.at(-1);
    if (!last || page.length < batch) return result;
    after = last.id;
    await new Promise((r) => setTimeout(r, options.pauseMs ?? 50));
  }
}

/** Prunes three minutes after the start, then every hour; `report` gets each pass that pruned. */
export function startConfigRetention(
  db: Db,
  retention: VersionRetention,
  report: (result: ConfigRetentionResult | Error) => void,
  intervalMs = 60 * 60_000,
  firstDelayMs = 180_000,
): PeriodicPass {
  return startPeriodicPass(
    (stopped) => pruneAllVersions(db, retention, { stopped }),
    (r) => {
      if (r instanceof Error || r.texts + r.rows > 0) report(r);
    },
    firstDelayMs,
    intervalMs,
  );
}
