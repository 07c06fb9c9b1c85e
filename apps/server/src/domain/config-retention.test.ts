import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInstallation, signIn, testApp } from '../../test/helpers/app.ts';
import { SECTION_SAVES } from '../../test/helpers/section-saves.ts';
import { versionRows, versionsWithText } from '../../test/helpers/config-versions.ts';
import { openTestDb } from '../../test/helpers/db.ts';
import type { Db } from '../db/types.ts';
import type { VersionRetention } from '../config/env.ts';
import { getVersionText, lockConfiguration, writeNewVersion } from './configurations.ts';

/** A size no test reaches: the byte limit is tested on its own. */
const NO_BYTE_LIMIT = 2 ** 40;

let db: Db;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db.close();
});

/** The versions that still have their text (the others keep a row for their scopes, a while). */
const versions = (id: string) => versionsWithText(db, id);
const rows = (id: string) => versionRows(db, id);

/** Writes n new versions (a comment changes each time), with the given retention. */
async function write(
  id: string,
  n: number,
  retention: VersionRetention,
  author: 'user' | 'connector' = 'user',
) {
  for (let i = 0; i < n; i++) {
    await db.transaction(async (tx) => {
      const current = await lockConfiguration(tx, id);
      const text = current.text.replace(/(<\/Connexion>)/, `<!-- ${current.version} -->$1`);
      await writeNewVersion(tx, id, current, text, author, 'sources', retention);
    });
  }
}

describe('configuration versions: retention', () => {
  it('keeps the newest N versions of an installation (current included), deletes older ones after each write', async () => {
    const { installation: a } = await addInstallation(db, { syncId: 'RET1' });
    const { installation: b } = await addInstallation(db, { syncId: 'RET2' });
    await write(b.id, 2, { keep: 50, maxAgeDays: 90, maxBytes: NO_BYTE_LIMIT });
    await write(a.id, 6, { keep: 3, maxAgeDays: 90, maxBytes: NO_BYTE_LIMIT });
    expect(await versions(a.id)).toEqual([5, 6, 7]);
    expect(await getVersionText(db, a.id, 4)).toBeNull();
    expect(await getVersionText(db, a.id, 7)).toContain('<!-- 6 -->');
    // Another installation's history is not touched.
    expect(await versions(b.id)).toEqual([1, 2, 3]);
  });

  it('deletes versions older than the age limit, but never the current one nor the one it replaced', async () => {
    const { installation } = await addInstallation(db, { syncId: 'RET3' });
    await write(installation.id, 3, { keep: 50, maxAgeDays: 90, maxBytes: NO_BYTE_LIMIT });
    await db.query(
      `UPDATE configuration_versions SET created_at = now() - interval '91 days' WHERE installation_id = $1`,
      [installation.id],
    );
    await write(installation.id, 1, { keep: 50, maxAgeDays: 90, maxBytes: NO_BYTE_LIMIT });
    // 1 and 2 are 91 days old: gone; 3 too old but the version just replaced (the repair's backup).
    expect(await versions(installation.id)).toEqual([4, 5]);
    await db.query(
      `UPDATE configuration_versions SET created_at = now() - interval '400 days' WHERE installation_id = $1`,
      [installation.id],
    );
    await write(installation.id, 1, { keep: 1, maxAgeDays: 1, maxBytes: NO_BYTE_LIMIT });
    expect(await versions(installation.id)).toEqual([5, 6]);
    // Rows without a text older than a session's lifetime are gone too; younger ones stay.
    expect(await rows(installation.id)).toEqual([5, 6]);
  });

  it("the connector's writes keep no text and do not push the people's versions out", async () => {
    const { installation } = await addInstallation(db, { syncId: 'RET5' });
    await write(installation.id, 3, { keep: 3, maxAgeDays: 90, maxBytes: NO_BYTE_LIMIT });
    await write(installation.id, 100, { keep: 3, maxAgeDays: 90, maxBytes: NO_BYTE_LIMIT }, 'connector');
    // The three people's versions of keep 3; the current text is the configuration's own.
    expect(await versions(installation.id)).toEqual([2, 3, 4]);
    expect((await rows(installation.id)).length).toBe(104);
    // A person's save replacing a connector's version keeps that version's text (the backup).
    await write(installation.id, 1, { keep: 3, maxAgeDays: 90, maxBytes: NO_BYTE_LIMIT });
    expect(await versions(installation.id)).toEqual([3, 4, 104, 105]);
  });

  it('a row without text older than a session can live is deleted; its scopes served until then', async () => {
    const { installation } = await addInstallation(db, { syncId: 'RET6' });
    await write(installation.id, 4, { keep: 1, maxAgeDays: 90, maxBytes: NO_BYTE_LIMIT });
    expect(await rows(installation.id)).toEqual([1, 2, 3, 4, 5]);
    await db.query(
      `UPDATE configuration_versions SET created_at = now() - interval '8 days' WHERE installation_id = $1 AND version < 3`,
      [installation.id],
    );
    await write(installation.id, 1, { keep: 1, maxAgeDays: 90, maxBytes: NO_BYTE_LIMIT });
    expect(await rows(installation.id)).toEqual([3, 4, 5, 6]);
    expect(await versions(installation.id)).toEqual([5, 6]);
  });

  it('keeps texts, the newest first, within maxBytes as stored; never the current nor the one it replaced', async () => {
    const { installation } = await addInstallation(db, {
      syncId: 'RET7',
      configText: '<Connexion><Info/></Connexion>',
    });
    // Each version about 100 KB that does not compress (random hex): as stored, about as large.
    const writeBig = async (n: number, maxBytes: number) => {
      for (let i = 0; i < n; i++) {
        await db.transaction(async (tx) => {
          const current = await lockConfiguration(tx, installation.id);
          const text = `<Connexion><Info/><!-- ${randomBytes(50_000).toString('hex')} --></Connexion>`;
          await writeNewVersion(tx, installation.id, current, text, 'user', 'sources', {
            keep: 50,
            maxAgeDays: 90,
            maxBytes,
          });
        });
      }
    };
    await writeBig(6, 350_000);
    // 7, 6, 5: about 300 KB; 4 would pass 350 KB.
    expect(await versions(installation.id)).toEqual([5, 6, 7]);
    // However small the limit, the current version and the one it replaced keep theirs.
    await writeBig(1, 1);
    expect(await versions(installation.id)).toEqual([7, 8]);
  });

  it('60 writes with keep 50: the 50 newest versions stay, the oldest are gone', async () => {
    const { installation } = await addInstallation(db, { syncId: 'RET4' });
    await write(installation.id, 60, { keep: 50, maxAgeDays: 90, maxBytes: NO_BYTE_LIMIT });
    expect((await versions(installation.id)).length).toBe(50);
    expect((await rows(installation.id)).length).toBe(61);
    expect(await getVersionText(db, installation.id, 2)).toBeNull();
  });

  it('a save through the API prunes with the retention the server was started with', async () => {
    const app = await testApp(db, { versionRetention: { keep: 3, maxAgeDays: 90, maxBytes: NO_BYTE_LIMIT } });
    try {
      const { installation } = await addInstallation(db, { syncId: 'RET9' });
      const cookie = await signIn(app, 'RET9');
      const save = SECTION_SAVES.find((s) => s.key === 'externalLinks')!;
      const view = (await app.inject({ method: 'GET', url: save.getPath, headers: { cookie } })).json<{
        data: unknown;
      }>().data;
      for (let n = 1; n <= 5; n++) {
        const res = await app.inject({
          method: save.method,
          url: save.path,
          headers: { cookie },
          payload: save.payload(view, n) as object,
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      // Version 1 (created) and five saves: the newest three stay.
      expect(await versions(installation.id)).toEqual([4, 5, 6]);
    } finally {
      await app.close();
    }
  });
});
