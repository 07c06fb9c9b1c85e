import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Db, Queryable } from './types.ts';

/**
 * Every open must load the same extensions: an index using one that is not loaded makes writes
 * fail (docs/server.md).
 */
const EXTENSIONS = { pg_trgm };

/** Embedded PostgreSQL in `dataDir`, or in memory when `dataDir` is undefined (tests). */
export async function openPglite(dataDir?: string): Promise<Db> {
  const pg = await PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions: EXTENSIONS });
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
  return {
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
}
