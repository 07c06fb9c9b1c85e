import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInstallation } from '../../test/helpers/app.ts';
import { openTestDb } from '../../test/helpers/db.ts';
import type { Db } from '../db/types.ts';
import { readVersionRetention, type VersionRetention } from './config-retention.ts';
import { getVersionText, lockConfiguration, writeNewVersion } from './configurations.ts';

let db: Db;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db.close();
});

const versions = async (id: string) =>
  (
    await db.query<{ version: number }>(
      'SELECT version FROM configuration_versions WHERE installation_id = $1 ORDER BY version',
      [id],
    )
  ).map((r) => r.version);

/** Writes n new versions (a comment changes each time), with the given retention. */
async function write(id: string, n: number, retention: VersionRetention) {
  for (let i = 0; i < n; i++) {
    await db.transaction(async (tx) => {
      const current = await lockConfiguration(tx, id);
      const text = current.text.replace(/(<\/Connexion>)/, `<!-- ${current.version} -->$1`);
      await writeNewVersion(tx, id, current, text, 'user', 'sources', retention);
    });
  }
}

describe('configuration versions: retention', () => {
  it('keeps the newest N versions of an installation (current included), deletes older ones after each write', async () => {
    const { installation: a } = await addInstallation(db, { syncId: 'RET1' });
    const { installation: b } = await addInstallation(db, { syncId: 'RET2' });
    await write(b.id, 2, { keep: 50, maxAgeDays: 90 });
    await write(a.id, 6, { keep: 3, maxAgeDays: 90 });
    expect(await versions(a.id)).toEqual([5, 6, 7]);
    expect(await getVersionText(db, a.id, 4)).toBeNull();
    expect(await getVersionText(db, a.id, 7)).toContain('<!-- 6 -->');
    // Another installation's history is not touched.
    expect(await versions(b.id)).toEqual([1, 2, 3]);
  });

  it('deletes versions older than the age limit, but never the current one nor the one it replaced', async () => {
    const { installation } = await addInstallation(db, { syncId: 'RET3' });
    await write(installation.id, 3, { keep: 50, maxAgeDays: 90 });
    await db.query(
      `UPDATE configuration_versions SET created_at = now() - interval '91 days' WHERE installation_id = $1`,
      [installation.id],
    );
    await write(installation.id, 1, { keep: 50, maxAgeDays: 90 });
    // 1 and 2 are 91 days old: gone; 3 too old but the version just replaced (the repair's backup).
    expect(await versions(installation.id)).toEqual([4, 5]);
    await db.query(
      `UPDATE configuration_versions SET created_at = now() - interval '400 days' WHERE installation_id = $1`,
      [installation.id],
    );
    await write(installation.id, 1, { keep: 1, maxAgeDays: 1 });
    expect(await versions(installation.id)).toEqual([5, 6]);
  });

  it('60 writes with keep 50: the 50 newest versions stay, the oldest are gone', async () => {
    const { installation } = await addInstallation(db, { syncId: 'RET4' });
    await write(installation.id, 60, { keep: 50, maxAgeDays: 90 });
    expect((await versions(installation.id)).length).toBe(50);
    expect(await getVersionText(db, installation.id, 2)).toBeNull();
  });

  it('reads CONFIG_VERSIONS_KEEP and CONFIG_VERSIONS_MAX_AGE_DAYS (defaults 50 and 90), refusing bad values in French', () => {
    expect(readVersionRetention({})).toEqual({ keep: 50, maxAgeDays: 90 });
    expect(
      readVersionRetention({ CONFIG_VERSIONS_KEEP: ' 10 ', CONFIG_VERSIONS_MAX_AGE_DAYS: '30' }),
    ).toEqual({
      keep: 10,
      maxAgeDays: 30,
    });
    for (const bad of ['0', '-1', 'abc', '1.5', '9999999999'])
      expect(() => readVersionRetention({ CONFIG_VERSIONS_KEEP: bad })).toThrow(
        `CONFIG_VERSIONS_KEEP invalide : ${bad} (attendu : un nombre entier supérieur ou égal à 1).`,
      );
    expect(() => readVersionRetention({ CONFIG_VERSIONS_MAX_AGE_DAYS: 'jamais' })).toThrow(
      'CONFIG_VERSIONS_MAX_AGE_DAYS invalide',
    );
  });
});
