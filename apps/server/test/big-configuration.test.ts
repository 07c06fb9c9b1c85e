import { editExclusions, parseConfig, readLastSync, readTerminals } from '@synchro/config-xml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/types.ts';
import { ConfigCache } from '../src/domain/config-cache.ts';
import { getConfiguration } from '../src/domain/configurations.ts';
import { createOffloadPool, inlineOffload, OFFLOAD_MIN_BYTES, type Offload } from '../src/offload/pool.ts';
import { signIn, testApp } from './helpers/app.ts';
import { connectorCall, connectorInstallation, expectConnectorError } from './helpers/connector.ts';
import { openTestDb } from './helpers/db.ts';
import { watchedOffload } from './helpers/offload.ts';
import { INVALID_JSON_MESSAGE } from '../src/http/json-body.ts';
import { BODY_BYTE_WEIGHT } from '../src/features/configuration/edit-task.ts';

/**
 * A configuration of several MB never holds the request thread (issue 14, docs/server.md Fair
 * share): its scan for the reads (ConfigCache) and the connector's edit of it (PATCH) run in a
 * worker thread, with the same results as on the request thread.
 */

let db: Db;
let pool: Offload;
const ran: string[] = [];
/** The real pool, noting the tasks it is given. */
const watched: Offload = watchedOffload(
  { ...inlineOffload, run: (task, input, transfer) => pool.run(task, input, transfer) },
  (name) => ran.push(name),
);

beforeAll(async () => {
  db = await openTestDb();
  pool = createOffloadPool({ threads: 1 });
});
afterAll(async () => {
  await pool.close();
  await db.close();
});

/** A `<Data>` of about `chars` characters (depots, as the connector writes them). */
function bigData(chars: number): string {
  const depot = (k: number) =>
    `<DEPOT><IDInterne>${k}</IDInterne><Code>D${k}</Code><Libelle>Dépôt ${k}</Libelle></DEPOT>`;
  const count = Math.ceil(chars / depot(99999).length);
  return `<Data><CMB_STOCK_DEPOT>${Array.from({ length: count }, (_, k) => depot(k)).join('')}</CMB_STOCK_DEPOT></Data>`;
}

/** An installation whose configuration passes OFFLOAD_MIN_BYTES (a big `Data` from its connector). */
async function withBigConfiguration(syncId: string) {
  const inst = await connectorInstallation(db, syncId);
  const app = await testApp(db, { offload: watched });
  const written = await connectorCall(app, 'PATCH', '/configuration', inst.token, {
    Data: bigData(OFFLOAD_MIN_BYTES),
  });
  expect(written.statusCode, written.body).toBe(200);
  return { inst, app };
}

describe('a big configuration', () => {
  it('is read through the worker thread, with the same values; an unreadable one gives the same error', async () => {
    const inst = await connectorInstallation(db, 'BIGCFG01');
    const app = await testApp(db, { offload: watched });
    try {
      const written = await connectorCall(app, 'PATCH', '/configuration', inst.token, {
        Data: bigData(OFFLOAD_MIN_BYTES),
      });
      expect(written.statusCode, written.body).toBe(200);
      const stored = await getConfiguration(db, inst.id);
      expect(stored.text.length).toBeGreaterThan(OFFLOAD_MIN_BYTES);

      ran.length = 0;
      const cache = new ConfigCache(10, watched);
      const cached = await cache.get(db, inst.id);
      expect(ran).toEqual(['config.parse']);
      expect(cached.parsed).not.toBeInstanceOf(Error);
      const here = parseConfig(stored.text);
      expect(readTerminals(cached.parsed as never)).toEqual(readTerminals(here));
      expect((cached.parsed as ReturnType<typeof parseConfig>).sectionText('Data')).toBe(
        here.sectionText('Data'),
      );

      // The console's screens read it too (the app's own cache).
      const cookie = await signIn(app, 'BIGCFG01');
      expect((await app.inject({ url: '/api/config/terminals', headers: { cookie } })).statusCode).toBe(200);

      const broken = `${stored.text.slice(0, -20)}<Oups>`;
      await db.query(
        'UPDATE configurations SET text = $2, text_id = NULL, version = version + 1 WHERE installation_id = $1',
        [inst.id, broken],
      );
      const unreadable = await new ConfigCache(10, watched).get(db, inst.id);
      let inThread: unknown;
      try {
        parseConfig(broken);
      } catch (err) {
        inThread = err;
      }
      expect(unreadable.parsed).toBeInstanceOf(Error);
      expect(unreadable.parsed).toMatchObject({
        code: (inThread as { code: string }).code,
        message: (inThread as Error).message,
        line: (inThread as { line: number }).line,
      });
    } finally {
      await app.close();
    }
  });

  it('is edited by the connector in the worker thread: same text as here, a new sync reported, a refused patch', async () => {
    const { inst, app } = await withBigConfiguration('BIGCFG02');
    try {
      const before = (await getConfiguration(db, inst.id)).text;
      ran.length = 0;
      const patch = { DerSynchro: { DateHeure: '202611261015', TypeDeSync: 'C' }, Info: { Version: '9.9' } };
      const res = await connectorCall(app, 'PATCH', '/configuration', inst.token, patch);
      expect(res.statusCode, res.body).toBe(200);
      expect(ran).toContain('connector.config-edit');
      const after = await getConfiguration(db, inst.id);
      expect(readLastSync(parseConfig(after.text)).dateHeure).toBe('202611261015');
      // The same edit on the request thread gives the same text.
      const { editConnectorText } = await import('../src/features/connector/configuration-tasks.ts');
      expect(after.text).toBe(editConnectorText(before, patch).text);

      const refused = await connectorCall(app, 'PATCH', '/configuration', inst.token, {
        Data: '<Data><Oups></Data>',
      });
      expect(expectConnectorError(refused, 400, 'invalid-request')).toMatch(/Data/);
      expect((await getConfiguration(db, inst.id)).version).toBe(after.version);
    } finally {
      await app.close();
    }
  });

  it('is saved from a screen and restored with its scans and changes in the worker thread', async () => {
    const { inst, app } = await withBigConfiguration('BIGCFG03');
    try {
      const cookie = await signIn(app, 'BIGCFG03');
      const view = (await app.inject({ url: '/api/config/complement', headers: { cookie } })).json().data;
      const before = await getConfiguration(db, inst.id);
      ran.length = 0;
      const saved = await app.inject({
        method: 'POST',
        url: '/api/database/complement',
        headers: { cookie, 'if-match': `"${before.version}"` },
        payload: {
          googleApiKey: view.googleApiKey,
          driveType: view.driveType,
          mailRapport: { ...view.mailRapport, mailDestinataire: 'gros@exemple.fr' },
          scriptComplementaire: view.scriptComplementaire,
        },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(ran).toEqual(expect.arrayContaining(['config.parse', 'config.version-changes']));
      // The Complement section is small: its edit is done here, not sent to a thread.
      expect(ran).not.toContain('config.section-edit');
      const after = await getConfiguration(db, inst.id);
      expect(after.text).toContain('gros@exemple.fr');
      const history = (await app.inject({ url: '/api/configuration-history', headers: { cookie } })).json();
      expect(JSON.stringify(history)).toContain('Complément');

      ran.length = 0;
      // Version 1, the installation's first (the one before is the connector's: not restorable).
      const restored = await app.inject({
        method: 'POST',
        url: '/api/configuration-history/1/restore',
        headers: { cookie, 'if-match': `"${after.version}"` },
        payload: {},
      });
      expect(restored.statusCode, restored.body).toBe(200);
      expect(ran).toEqual(expect.arrayContaining(['config.parse', 'config.version-changes']));
      expect((await getConfiguration(db, inst.id)).text).not.toContain('gros@exemple.fr');
    } finally {
      await app.close();
    }
  });

  it('takes a big exclusions save in the worker thread: body read, checked and applied there, the same text as here', async () => {
    const inst = await connectorInstallation(db, 'BIGCFG04');
    const app = await testApp(db, { offload: watched });
    try {
      const cookie = await signIn(app, 'BIGCFG04');
      const save = (body: string) =>
        app.inject({
          method: 'POST',
          url: '/api/database/exclusions',
          headers: { cookie, 'content-type': 'application/json' },
          payload: body,
        });
      // A body past OFFLOAD_MIN_BYTES: neither parsed nor checked nor applied on the request thread.
      const families = Array.from({ length: 12_000 }, (_, i) => ({
        id: `GRANDE${i}|`,
        libelle: `Famille ${i}`,
        type: 'ItemFamily',
      }));
      const big = JSON.stringify({ exclusions: families });
      expect(big.length).toBeGreaterThan(OFFLOAD_MIN_BYTES);
      const before = await getConfiguration(db, inst.id);
      ran.length = 0;
      const saved = await save(big);
      expect(saved.statusCode, saved.body).toBe(200);
      expect(ran).toContain('config.section-edit');
      const after = await getConfiguration(db, inst.id);
      expect(after.version).toBe(before.version + 1);
      expect(after.text).toBe(editExclusions(before.text, { exclusions: families } as never));

      // A small body, but the stored Exclusions are big now: the edit goes to the thread too.
      ran.length = 0;
      const emptied = await save(JSON.stringify({ exclusions: families.slice(0, 10) }));
      expect(emptied.statusCode, emptied.body).toBe(200);
      expect(ran).toContain('config.section-edit');
      // The text is small again, the one it replaces is not: its changes are found there too.
      expect(ran).toContain('config.version-changes');
      const last = await getConfiguration(db, inst.id);
      expect(last.text).toBe(editExclusions(after.text, { exclusions: families.slice(0, 10) } as never));

      // A big body refused there as here: the same 400, nothing written.
      const wrong = structuredClone(families);
      (wrong[11_000] as { type: string }).type = 'Oups';
      ran.length = 0;
      const refused = await save(JSON.stringify({ exclusions: wrong }));
      expect(ran).toContain('config.section-edit');
      expect(refused.statusCode).toBe(400);
      const small = await save(JSON.stringify({ exclusions: [wrong[11_000]] }));
      expect(small.statusCode).toBe(400);
      expect(refused.json().code).toBe('VALIDATION');
      expect(refused.json().message).toBe(small.json().message.replace('exclusions.0.', 'exclusions.11000.'));
      const notJson = await save(`${big.slice(0, -1)},]`);
      expect(notJson.statusCode).toBe(400);
      expect(notJson.json().message).toBe(INVALID_JSON_MESSAGE);
      expect((await getConfiguration(db, inst.id)).version).toBe(last.version);

      // A body weighs four stored bytes a byte (BODY_BYTE_WEIGHT): 3 000 families, 180 Ko, go too.
      const middle = JSON.stringify({ exclusions: families.slice(0, 3_000) });
      expect(middle.length * BODY_BYTE_WEIGHT).toBeGreaterThan(OFFLOAD_MIN_BYTES);
      ran.length = 0;
      expect((await save(middle)).statusCode).toBe(200);
      expect(ran).toContain('config.section-edit');
    } finally {
      await app.close();
    }
  });
});
