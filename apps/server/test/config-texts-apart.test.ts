import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../src/db/types.ts';
import { CHUNK_CHARS, STATEMENT_CHARS } from '../src/domain/blobs.ts';
import {
  INLINE_TEXT_CHARS,
  sweepConfigurationTexts,
  UNHELD_LIFETIME_MS,
} from '../src/domain/configuration-texts.ts';
import {
  commitVersion,
  getConfiguration,
  getVersionText,
  prepareVersion,
  writeConfiguration,
} from '../src/domain/configurations.ts';
import { versionsWithText } from './helpers/config-versions.ts';
import { FIXTURE_CONFIG, signIn, testApp } from './helpers/app.ts';
import { connectorCall, connectorInstallation } from './helpers/connector.ts';
import { openTestDb } from './helpers/db.ts';
import { SECTION_SAVES } from './helpers/section-saves.ts';

/**
 * A configuration text longer than INLINE_TEXT_CHARS is written apart, a few hundred KB per
 * statement, before the transaction of its write (domain/configuration-texts.ts, migration 028):
 * on the embedded database one statement of 22 MB held every installation's requests for half a
 * second or more.
 */

/** Characters of the padding comment: the text is three times the inline limit. */
const PADDING = 3 * INLINE_TEXT_CHARS;

/**
 * A big configuration that starts with a byte order mark and has a surrogate pair across the end
 * of its first chunk (neither may be lost or split by the pieces).
 */
function bigConfig(mark: string): string {
  const head = `\uFEFF${FIXTURE_CONFIG.replace('</Connexion>', '<!-- ')}`;
  const toEdge = CHUNK_CHARS - head.length - 1;
  const padding = `${'x'.repeat(toEdge)}😀${'remplissage '.repeat(Math.ceil(PADDING / 12))}`;
  return `${head}${padding} ${mark} -->\r\n</Connexion>\r\n`;
}

const RETENTION = { keep: 50, maxAgeDays: 90, maxBytes: 2 ** 40 };

interface Statement {
  sql: string;
  chars: number;
  inTransaction: boolean;
}

/** `db`, every statement noted with the characters of its parameters and whether a transaction ran it. */
function recording(db: Db, statements: Statement[]): Db {
  const chars = (params: readonly unknown[] = []) =>
    params.reduce<number>((n, p) => n + (typeof p === 'string' ? p.length : 0), 0);
  const noted = (q: Queryable, inTransaction: boolean): Queryable => ({
    async query(sql, params, options) {
      statements.push({ sql, chars: chars(params), inTransaction });
      return q.query(sql, params, options);
    },
    exec: (sql) => q.exec(sql),
  });
  return {
    ...db,
    ...noted(db, false),
    kind: db.kind,
    transaction: (fn, settings) => db.transaction((tx) => fn(noted(tx, true)), settings),
    close: () => db.close(),
  };
}

/** A person's save of `text` through the one write path, as the section saves make it. */
async function save(db: Db, installationId: string, text: string, author: 'user' | 'connector' = 'user') {
  return writeConfiguration(db, installationId, {
    prepare: (current) => prepareVersion(db, installationId, current, text, author),
    commit: (tx, prepared) => commitVersion(tx, installationId, prepared, null, RETENTION),
  });
}

const textRows = async (db: Db, installationId: string) =>
  db.query<{ id: string; released: boolean; attached: boolean }>(
    `SELECT id::text AS id, released_at IS NOT NULL AS released, attached FROM configuration_texts
     WHERE installation_id = $1 ORDER BY id`,
    [installationId],
  );

describe('big configuration texts are written apart', () => {
  let db: Db;
  let app: FastifyInstance;
  beforeAll(async () => {
    db = await openTestDb();
    app = await testApp(db);
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  it('no statement of the transaction carries the text, none at all more than STATEMENT_CHARS; read back exactly', async () => {
    const a = await connectorInstallation(db, 'APART001');
    const statements: Statement[] = [];
    const text = bigConfig('un');
    const written = await save(recording(db, statements), a.id, text);
    expect(written.version).toBe(2);

    const inTransaction = statements.filter((s) => s.inTransaction);
    expect(inTransaction.length).toBeGreaterThan(0);
    expect(Math.max(...inTransaction.map((s) => s.chars))).toBeLessThan(64 * 1024);
    expect(Math.max(...statements.map((s) => s.chars))).toBeLessThanOrEqual(STATEMENT_CHARS + 1024);

    const stored = await getConfiguration(db, a.id);
    expect(stored.version).toBe(2);
    expect(stored.text.length).toBe(text.length);
    expect(stored.text === text).toBe(true);
    expect(await getVersionText(db, a.id, 2)).toBe(text);
    // The connector reads it whole through its API too.
    const res = await connectorCall(app, 'GET', '/configuration', a.token);
    expect(res.statusCode).toBe(200);
    expect(res.body.includes(' un -->')).toBe(true);
    expect(res.body.includes('😀')).toBe(true);
  });

  it('the history shares a text written apart with the configuration instead of copying it', async () => {
    const a = await connectorInstallation(db, 'APART002');
    await save(db, a.id, bigConfig('premier'));
    await save(db, a.id, bigConfig('second'));
    // Two texts for versions 2 and 3: version 2's was not written again when version 3 replaced it.
    expect(await textRows(db, a.id)).toHaveLength(2);
    expect(await versionsWithText(db, a.id)).toEqual([1, 2, 3]);
    expect(await getVersionText(db, a.id, 2)).toContain(' premier -->');
    expect((await getConfiguration(db, a.id)).text).toContain(' second -->');
    // The version screen compares them like any other.
    const cookie = await signIn(app, 'APART002');
    const changes = await app.inject({ url: '/api/configuration-history/3/changes', headers: { cookie } });
    expect(changes.statusCode, changes.body).toBe(200);
  });

  it('a text nobody refers to any more is released, and deleted by the sweep only after a while', async () => {
    const a = await connectorInstallation(db, 'APART003');
    // The connector's versions keep no text: its first big text is let go by its second write.
    await save(db, a.id, bigConfig('connecteur 1'), 'connector');
    await save(db, a.id, bigConfig('connecteur 2'), 'connector');
    const [first, second] = await textRows(db, a.id);
    expect(first).toMatchObject({ released: true, attached: true });
    expect(second).toMatchObject({ released: false, attached: true });
    const chunks = (id: string) =>
      db.query('SELECT seq FROM configuration_text_chunks WHERE text_id = $1', [id]);
    expect((await chunks(first!.id)).length).toBeGreaterThan(1);

    // Not at once: a read under way finishes.
    await sweepConfigurationTexts(db, new Date());
    expect(await textRows(db, a.id)).toHaveLength(2);
    await sweepConfigurationTexts(db, new Date(Date.now() + UNHELD_LIFETIME_MS + 60_000));
    expect((await textRows(db, a.id)).map((t) => t.id)).toEqual([second!.id]);
    expect(await chunks(first!.id)).toHaveLength(0);
    expect((await getConfiguration(db, a.id)).text).toContain(' connecteur 2 -->');
  });

  it('a text written by a write that lost its race is deleted by the sweep', async () => {
    const a = await connectorInstallation(db, 'APART004');
    let raced = false;
    await writeConfiguration(db, a.id, {
      prepare: async (current) => {
        const prepared = await prepareVersion(db, a.id, current, bigConfig('perdant'), 'user');
        if (!raced) {
          raced = true;
          await save(db, a.id, bigConfig('gagnant'));
        }
        return prepared;
      },
      commit: (tx, prepared) => commitVersion(tx, a.id, prepared, null, RETENTION),
    });
    // The loser's first text never attached; its second attempt, on the winner's version, did.
    const rows = await textRows(db, a.id);
    expect(rows.filter((t) => !t.attached)).toHaveLength(1);
    await sweepConfigurationTexts(db, new Date(Date.now() + UNHELD_LIFETIME_MS + 60_000));
    expect((await textRows(db, a.id)).filter((t) => !t.attached)).toHaveLength(0);
    const current = await getConfiguration(db, a.id);
    expect(current.version).toBe(3);
    expect(current.text).toContain(' perdant -->');
    expect(await getVersionText(db, a.id, 2)).toContain(' gagnant -->');
  });

  it('a read whose text is replaced and deleted under it starts again, never a text cut short', async () => {
    const a = await connectorInstallation(db, 'APART005');
    await save(db, a.id, bigConfig('ancien'), 'connector');
    let replaced = false;
    // Just before its first piece is read, another write replaces the text and the sweep runs.
    const racing: Db = {
      ...db,
      kind: db.kind,
      transaction: (fn, settings) => db.transaction(fn, settings),
      close: () => db.close(),
      exec: (sql) => db.exec(sql),
      async query(sql, params, options) {
        if (!replaced && sql.includes('FROM configuration_text_chunks')) {
          replaced = true;
          await save(db, a.id, bigConfig('nouveau'), 'connector');
          await sweepConfigurationTexts(db, new Date(Date.now() + UNHELD_LIFETIME_MS + 60_000));
        }
        return db.query(sql, params, options);
      },
    };
    const read = await getConfiguration(racing, a.id);
    expect(replaced).toBe(true);
    expect(read.version).toBe(3);
    expect(read.text).toContain(' nouveau -->');
    expect(read.text.length).toBe(bigConfig('nouveau').length);
  });

  it('the retention counts texts written apart in its byte budget, and releases those it prunes', async () => {
    const a = await connectorInstallation(db, 'APART006');
    const small = { keep: 50, maxAgeDays: 90, maxBytes: 1024 };
    for (const mark of ['v2', 'v3', 'v4']) {
      await writeConfiguration(db, a.id, {
        prepare: (current) => prepareVersion(db, a.id, current, bigConfig(mark), 'user'),
        commit: (tx, prepared) => commitVersion(tx, a.id, prepared, null, small),
      });
    }
    // The current version and the one it replaced always keep theirs; the others went over 1 KB.
    expect(await versionsWithText(db, a.id)).toEqual([3, 4]);
    const rows = await textRows(db, a.id);
    expect(rows.filter((t) => t.released)).toHaveLength(1);
  });

  it('an installation deleted takes its texts written apart with it', async () => {
    const a = await connectorInstallation(db, 'APART008');
    await save(db, a.id, bigConfig('un'));
    await save(db, a.id, bigConfig('deux'), 'connector');
    expect(await textRows(db, a.id)).toHaveLength(2);
    await db.query('DELETE FROM installations WHERE id = $1', [a.id]);
    expect(await textRows(db, a.id)).toHaveLength(0);
  });

  it('a section save through the console answers as before with a big configuration', async () => {
    const a = await connectorInstallation(db, 'APART007', { configText: bigConfig('console') });
    const cookie = await signIn(app, 'APART007');
    const section = SECTION_SAVES.find((s) => s.key === 'externalLinks')!;
    const view = (await app.inject({ url: section.getPath, headers: { cookie } })).json<{ data: unknown }>()
      .data;
    const res = await app.inject({
      method: section.method,
      url: section.path,
      headers: { cookie },
      payload: section.payload(view, 1) as object,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await textRows(db, a.id)).toHaveLength(1);
    const stored = await getConfiguration(db, a.id);
    expect(stored.text.startsWith('\uFEFF')).toBe(true);
    expect(stored.text).toContain(' console -->');
    const again = await connectorCall(app, 'GET', '/configuration', a.token);
    expect(again.statusCode).toBe(200);
  });
});
