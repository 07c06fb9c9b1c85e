import { API_PATHS } from '@synchro/contracts/constants';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/types.ts';
import {
  getConfiguration,
  lockConfiguration,
  WRITE_ATTEMPTS,
  writeNewVersion,
} from '../src/domain/configurations.ts';
import { inlineOffload, OFFLOAD_MIN_BYTES } from '../src/offload/pool.ts';
import { FIXTURE_CONFIG, signIn, testApp } from './helpers/app.ts';
import { connectorCall, connectorInstallation } from './helpers/connector.ts';
import { openTestDb } from './helpers/db.ts';
import { watchedOffload } from './helpers/offload.ts';
import { SECTION_SAVES } from './helpers/section-saves.ts';

/**
 * The long work of a configuration write (parse, edit, changes of a big text: in the worker pool)
 * runs before its transaction (domain/configurations.ts, writeConfiguration): on the embedded
 * database an open transaction makes every installation's statements wait, and on PostgreSQL it
 * holds a connection and the row. The pool here runs each task on this thread, and first checks
 * that no transaction holds the installation's configuration row.
 */

/** A configuration big enough for every scan of it to go to the worker pool. */
const BIG_CONFIG = FIXTURE_CONFIG.replace(
  '</Connexion>',
  `<!-- ${'remplissage '.repeat(Math.ceil(OFFLOAD_MIN_BYTES / 12))} -->\r\n</Connexion>`,
);

/** True when another transaction can lock the row at once (NOWAIT), within a second. */
async function rowFree(db: Db, installationId: string): Promise<boolean> {
  const probe = db
    .transaction((tx) =>
      tx.query('SELECT version FROM configurations WHERE installation_id = $1 FOR UPDATE NOWAIT', [
        installationId,
      ]),
    )
    .then(
      () => true,
      () => false,
    );
  const late = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1000));
  return Promise.race([probe, late]);
}

describe('a configuration write does its long work outside its transaction', () => {
  let db: Db;
  let app: FastifyInstance;
  /** What each task run saw: the row free or not. */
  let seen: boolean[] = [];
  let watched = '';
  /** Run before each task, after the check (a write of another server process, say). */
  let beforeTask: () => Promise<void> = async () => {};
  const probing = watchedOffload(inlineOffload, async () => {
    if (watched) seen.push(await rowFree(db, watched));
    await beforeTask();
  });

  beforeAll(async () => {
    db = await openTestDb();
    app = await testApp(db, { offload: probing });
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });
  beforeEach(() => {
    seen = [];
    watched = '';
    beforeTask = async () => {};
  });

  const bigInstallation = async (syncId: string) => {
    const inst = await connectorInstallation(db, syncId, { configText: BIG_CONFIG });
    return { ...inst, cookie: await signIn(app, syncId) };
  };
  const save = SECTION_SAVES.find((s) => s.key === 'externalLinks')!;
  const saveOf = async (cookie: string, n: number, ifMatch?: number) => {
    const view = (await app.inject({ url: save.getPath, headers: { cookie } })).json<{ data: unknown }>()
      .data;
    return app.inject({
      method: save.method,
      url: save.path,
      headers: { cookie, ...(ifMatch !== undefined ? { 'if-match': `"${ifMatch}"` } : {}) },
      payload: save.payload(view, n) as object,
    });
  };
  const savedValue = async (cookie: string) =>
    save.read((await app.inject({ url: save.getPath, headers: { cookie } })).json<{ data: never }>().data);
  /** A write of another server process: not held by this one's write gate. */
  const writeElsewhere = async (installationId: string, mark: string) =>
    db.transaction(async (tx) => {
      const current = await lockConfiguration(tx, installationId);
      const text = current.text.replace('</Connexion>', `<!-- ${mark} -->\r\n</Connexion>`);
      await writeNewVersion(tx, installationId, current, text, 'user', 'sources', {
        keep: 50,
        maxAgeDays: 0,
        maxBytes: 2 ** 40,
      });
    });

  it('a save, a restore, a repair and the connector’s PATCH: no transaction while a task runs', async () => {
    const a = await bigInstallation('WRTX0001');
    watched = a.id;
    const calls: Array<[string, () => Promise<LightMyRequestResponse>]> = [
      ['save', () => saveOf(a.cookie, 1)],
      [
        'restore',
        () =>
          app.inject({
            method: 'POST',
            url: '/api/configuration-history/1/restore',
            headers: { cookie: a.cookie, 'if-match': '"2"' },
            payload: {},
          }),
      ],
      [
        'repair',
        () => app.inject({ method: 'POST', url: API_PATHS.debugRepairXml, headers: { cookie: a.cookie } }),
      ],
      [
        'patch',
        () => connectorCall(app, 'PATCH', '/configuration', a.token, { DerSynchro: { NbEnreg: '7' } }),
      ],
    ];
    const versions: number[] = [];
    for (const [name, call] of calls) {
      seen = [];
      const res = await call();
      expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
      expect(seen.length, name).toBeGreaterThan(0);
      expect(seen, name).not.toContain(false);
      versions.push(res.json<{ version: number }>().version);
    }
    // Each one wrote a version (the repair: the fixture's faults), the newest stored.
    expect(versions).toEqual([2, 3, 4, 5]);
    expect((await getConfiguration(db, a.id)).version).toBe(5);
  });

  it('a write that came in meanwhile: the save is made again on the newer text, both kept', async () => {
    const a = await bigInstallation('WRTX0002');
    let once = true;
    beforeTask = async () => {
      if (!once) return;
      once = false;
      await writeElsewhere(a.id, 'ecrit ailleurs');
    };
    const res = await saveOf(a.cookie, 5, 1);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ version: number }>().version).toBe(3);
    const stored = await getConfiguration(db, a.id);
    expect(stored.text.includes('<!-- ecrit ailleurs -->')).toBe(true);
    expect(await savedValue(a.cookie)).toBe(save.value(5));
  });

  it(`a write coming in every time: 409 after ${WRITE_ATTEMPTS} attempts, the save wrote nothing`, async () => {
    const a = await bigInstallation('WRTX0003');
    let n = 0;
    beforeTask = async () => {
      n += 1;
      await writeElsewhere(a.id, `ecrit ailleurs ${n}`);
    };
    const res = await saveOf(a.cookie, 6);
    expect(res.statusCode, res.body).toBe(409);
    beforeTask = async () => {};
    const stored = await getConfiguration(db, a.id);
    expect(await savedValue(a.cookie)).not.toBe(save.value(6));
    // Every attempt read the newest text (one write of the other process each time).
    expect(stored.version).toBe(1 + n);
    expect(n).toBeGreaterThanOrEqual(WRITE_ATTEMPTS);
  });
});
