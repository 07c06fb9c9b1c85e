import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addInstallation } from '../../test/helpers/app.ts';
import { versionRows, versionsWithText } from '../../test/helpers/config-versions.ts';
import { openTestDb } from '../../test/helpers/db.ts';
import type { VersionRetention } from '../config/env.ts';
import type { Db } from '../db/types.ts';
import { pruneAllVersions, startConfigRetention } from './config-retention-pass.ts';
import { pruneVersions } from './config-retention.ts';
import { lockConfiguration, writeNewVersion } from './configurations.ts';

// Runs on the embedded database, and on PostgreSQL with TEST_DATABASE_URL.
let db: Db;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db.close();
});

const RETENTION: VersionRetention = { keep: 50, maxAgeDays: 90, maxBytes: 2 ** 40 };

const withText = (id: string) => versionsWithText(db, id);
const rows = (id: string) => versionRows(db, id);
const state = async (id: string) => ({ texts: await withText(id), rows: await rows(id) });

/** n new versions (a comment changes each time), written with a retention that prunes nothing. */
async function write(id: string, n: number, author: 'user' | 'connector' = 'user') {
  for (let i = 0; i < n; i++) {
    await db.transaction(async (tx) => {
      const current = await lockConfiguration(tx, id);
      const text = current.text.replace(/(<\/Connexion>)/, `<!-- ${current.version} -->$1`);
      await writeNewVersion(tx, id, current, text, author, 'sources', RETENTION);
    });
  }
}

/** Versions up to `upTo` made `days` old (nobody writes afterwards). */
const age = (id: string, days: number, upTo = 2 ** 31 - 1) =>
  db.query(
    `UPDATE configuration_versions SET created_at = now() - make_interval(days => $2)
     WHERE installation_id = $1 AND version <= $3`,
    [id, days, upTo],
  );

describe('the timed pass of the configuration versions’ retention', () => {
  it('prunes the installations nobody writes to like a write would, batch after batch, and leaves the others', async () => {
    // Old: 6 versions, all 91 days old. Its twin gets the write-time rule applied directly.
    const old = (await addInstallation(db, { syncId: 'CRP1' })).installation.id;
    const twin = (await addInstallation(db, { syncId: 'CRP2' })).installation.id;
    for (const id of [old, twin]) {
      await write(id, 5);
      await age(id, 91);
    }
    await pruneVersions(db, twin, 6, RETENTION);
    // Half old: 1–3 are 91 days old, then connector updates 8 days old (rows without text), 4–6 recent.
    const half = (await addInstallation(db, { syncId: 'CRP3' })).installation.id;
    await write(half, 2);
    await write(half, 3, 'connector');
    await write(half, 3);
    await age(half, 8, 6);
    await age(half, 91, 3);
    expect(await state(half)).toEqual({ texts: [1, 2, 3, 7, 8, 9], rows: [1, 2, 3, 4, 5, 6, 7, 8, 9] });
    // Never written to since its creation 400 days ago: its only version is the current one.
    const alone = (await addInstallation(db, { syncId: 'CRP4' })).installation.id;
    await age(alone, 400);
    // Recent: nothing to prune.
    const recent = (await addInstallation(db, { syncId: 'CRP5' })).installation.id;
    await write(recent, 4);
    const recentBefore = await state(recent);

    const result = await pruneAllVersions(db, RETENTION, { batch: 2, pauseMs: 0 });

    // The two the rule always keeps (the current one and the one it replaced); the rest was too old.
    expect(await state(old)).toEqual({ texts: [5, 6], rows: [5, 6] });
    expect(await state(twin)).toEqual(await state(old));
    // The connector's rows (no text) stay a session's lifetime: 8 days, gone; 1–3 too old.
    expect(await state(half)).toEqual({ texts: [7, 8, 9], rows: [7, 8, 9] });
    expect(await state(alone)).toEqual({ texts: [1], rows: [1] });
    expect(await state(recent)).toEqual(recentBefore);
    expect(recentBefore.texts).toEqual([1, 2, 3, 4, 5]);
    expect(result).toEqual({ installations: 2, texts: 4 + 3, rows: 4 + 6 });

    // Nothing left to do: the next pass prunes nothing (and looks at no installation's versions).
    expect(await pruneAllVersions(db, RETENTION, { batch: 2, pauseMs: 0 })).toEqual({
      installations: 0,
      texts: 0,
      rows: 0,
    });
  });

  it('keeps what the write-time rule keeps: the newest texts younger than the age limit, the recent rows without text', async () => {
    const id = (await addInstallation(db, { syncId: 'CRP6' })).installation.id;
    await write(id, 5);
    // 1–2 are 100 days old, 3–4 are 30 days old, 5–6 are today's.
    await age(id, 30, 4);
    await age(id, 100, 2);
    await pruneAllVersions(db, RETENTION, { pauseMs: 0 });
    expect(await state(id)).toEqual({ texts: [3, 4, 5, 6], rows: [3, 4, 5, 6] });
    // A shorter age limit (CONFIG_VERSIONS_MAX_AGE_DAYS=10): 3–4 lose their text, their rows stay
    // (rows without text live a session's lifetime, 7 days, from their writing: 30 days, gone).
    await pruneAllVersions(db, { ...RETENTION, maxAgeDays: 10 }, { pauseMs: 0 });
    expect(await state(id)).toEqual({ texts: [5, 6], rows: [5, 6] });
  });

  it('stops between batches when asked, and reports only the passes that pruned', async () => {
    const id = (await addInstallation(db, { syncId: 'CRP7' })).installation.id;
    await write(id, 3);
    await age(id, 91);
    expect(await pruneAllVersions(db, RETENTION, { stopped: () => true })).toEqual({
      installations: 0,
      texts: 0,
      rows: 0,
    });
    expect(await withText(id)).toEqual([1, 2, 3, 4]);

    const reported: unknown[] = [];
    const pass = startConfigRetention(db, RETENTION, (r) => reported.push(r), 10, 0);
    await vi.waitFor(() => expect(reported).toHaveLength(1));
    // Passes go on every 10 ms; those that prune nothing are not reported.
    await new Promise((r) => setTimeout(r, 100));
    await pass.stop();
    expect(reported).toEqual([expect.objectContaining({ installations: 1, texts: 2, rows: 2 })]);
    expect(await state(id)).toEqual({ texts: [3, 4], rows: [3, 4] });
  });
});
