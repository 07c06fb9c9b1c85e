import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Db, Queryable } from './types.ts';

/**
 * Every open must load the same extensions: an index using one that is not loaded makes writes
 * fail (docs/server.md).
 */
const EXTENSIONS = { pg_trgm };

/**
 * Embedded PostgreSQL in `dataDir`, or in memory when `dataDir` is undefined (tests); `template`
 * is a dump (see dumpPglite) to start from instead of an empty cluster.
 */
export async function openPglite(dataDir?: string, template?: Blob): Promise<Db> {
  const pg = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(template ? { loadDataDir: template } : {}),
    extensions: EXTENSIONS,
  });
  // PGlite runs one statement at a time; transactions are serialised by its own queue.
  const asQueryable = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const res = await q.query<T>(sql, params as unknown[]);
      return res.rows;
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  });
  const root = asQueryable(pg);
  const db: Db = {
    kind: 'pglite',
    query: root.query,
    exec: root.exec,
    async transaction(fn) {
      return pg.transaction((tx) => fn(asQueryable(tx)));
    },
    async close() {
      await pg.close();
    },
  };
  dumpers.set(db, () => pg.dumpDataDir('none'));
  return db;
}

const dumpers = new WeakMap<Db, () => Promise<Blob>>();

/** The whole cluster of an embedded database as a tarball, to open copies of it fast (tests). */
export async function dumpPglite(db: Db): Promise<Blob> {
  const dump = dumpers.get(db);
  if (!dump) throw new Error('not an embedded database');
  return dump();
}
