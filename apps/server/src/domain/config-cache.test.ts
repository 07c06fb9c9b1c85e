import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInstallation } from '../../test/helpers/app.ts';
import { openTestDb } from '../../test/helpers/db.ts';
import type { Db, Queryable } from '../db/types.ts';
import { ConfigCache, entryBytes } from './config-cache.ts';

let db: Db;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db.close();
});

/** The database, counting the reads of a configuration's text. */
function counting(): { q: Queryable; textReads: () => number } {
  let n = 0;
  return {
    q: {
      query: (sql, params, options) => {
        if (/SELECT .*text.* FROM configurations/s.test(sql)) n += 1;
        return db.query(sql, params, options);
      },
      exec: (sql) => db.exec(sql),
    },
    textReads: () => n,
  };
}

const configOf = (padding: number) =>
  `<?xml version="1.0" encoding="UTF-8"?>\r\n<Connexion>\r\n<!-- ${'x'.repeat(padding)} -->\r\n</Connexion>\r\n`;

describe('ConfigCache', () => {
  it('requests that miss the same version at once share one read and one parse', async () => {
    const { installation } = await addInstallation(db, { syncId: 'CACHE001', configText: configOf(1000) });
    const cache = new ConfigCache();
    const { q, textReads } = counting();
    const entries = await Promise.all(Array.from({ length: 10 }, () => cache.at(q, installation.id, 1)));
    expect(textReads()).toBe(1);
    expect(new Set(entries).size).toBe(1);
    // Then a hit: no read at all.
    await cache.at(q, installation.id, 1);
    expect(textReads()).toBe(1);
  });

  it('keeps what it holds within its bytes, the least recently used going first', async () => {
    const a = (await addInstallation(db, { syncId: 'CACHE002', configText: configOf(40_000) })).installation;
    const b = (await addInstallation(db, { syncId: 'CACHE003', configText: configOf(40_000) })).installation;
    const one = entryBytes(await new ConfigCache().at(db, a.id, 1));
    expect(one).toBeGreaterThan(80_000);
    // Room for one of them, not two.
    const cache = new ConfigCache(200, null, Math.floor(one * 1.5));
    await cache.at(db, a.id, 1);
    expect(cache.held()).toEqual({ entries: 1, bytes: one });
    await cache.at(db, b.id, 1);
    expect(cache.held()).toEqual({ entries: 1, bytes: one });
    // B is the one kept: A is read again, B is not.
    const { q, textReads } = counting();
    await cache.at(q, b.id, 1);
    expect(textReads()).toBe(0);
    await cache.at(q, a.id, 1);
    expect(textReads()).toBe(1);
  });

  it('a configuration bigger than the whole budget is used by its request and not kept', async () => {
    const { installation } = await addInstallation(db, { syncId: 'CACHE004', configText: configOf(10_000) });
    const cache = new ConfigCache(200, null, 1000);
    const entry = await cache.at(db, installation.id, 1);
    expect(entry.version).toBe(1);
    expect(entry.parsed).toHaveProperty('text');
    expect(cache.held()).toEqual({ entries: 0, bytes: 0 });
  });

  it('a newer version is read, never hidden by the one cached', async () => {
    const { installation } = await addInstallation(db, { syncId: 'CACHE005', configText: configOf(10) });
    const cache = new ConfigCache();
    expect((await cache.get(db, installation.id)).version).toBe(1);
    await db.query(`UPDATE configurations SET text = $2, version = 2 WHERE installation_id = $1`, [
      installation.id,
      configOf(20),
    ]);
    const entry = await cache.get(db, installation.id);
    expect(entry.version).toBe(2);
    expect(cache.held().bytes).toBe(entryBytes(entry));
  });
});
