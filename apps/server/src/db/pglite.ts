import { parse, PGlite, protocol } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { setLocal } from './transaction-settings.ts';
import { ANY_CHANGE, type Db, type Queryable, type QueryOptions } from './types.ts';

/**
 * Every open must load the same extensions: an index using one that is not loaded makes writes
 * fail (docs/server.md). `pg_trgm`: search indexes; `unaccent`: the history's folded search text
 * (migration 004).
 */
const EXTENSIONS = { pg_trgm, unaccent };

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
  const prepared = preparedStatements(pg);
  const listeners: ((payload: string) => void)[] = [];
  let openTransactions = 0;
  const db: Db = {
    kind: 'pglite',
    async query<T>(sql: string, params: readonly unknown[] = [], options: QueryOptions = {}) {
      return options.prepare ? prepared.run<T>(options.prepare, sql, params) : root.query<T>(sql, params);
    },
    async exec(sql: string) {
      try {
        await root.exec(sql);
      } catch (err) {
        for (const listener of listeners) listener(ANY_CHANGE);
        throw err;
      }
    },
    inTransaction: () => openTransactions > 0,
    async transaction(fn, settings) {
      const sets = setLocal(settings);
      openTransactions += 1;
      try {
        return await pg.transaction(async (tx) => {
          if (sets !== null) await tx.exec(sets);
          return fn(asQueryable(tx));
        });
      } finally {
        openTransactions -= 1;
      }
    },
    async close() {
      await pg.close();
    },
    async listen(channel, listener) {
      // PGlite calls listeners in a microtask queued while it reads the committing statement's
      // answer: before that statement's promise resolves.
      listeners.push(listener);
      await pg.listen(channel, listener);
    },
  };
  dumpers.set(db, () => pg.dumpDataDir('none'));
  return db;
}

/**
 * Named prepared statements on PGlite, which has no API for them: `query` sends Parse, Describe,
 * Bind, Describe, Execute and Sync as six calls into the WASM backend and plans the statement
 * every time (~0.35 ms for the session query against ~0.1 ms prepared, docs/server.md
 * "Performance"). Here a statement is parsed once (Parse + Describe to learn its parameter
 * types), then each run is one call of Bind, Describe, Execute and Sync. Parameters and rows go
 * through PGlite's own serializers and parsers, so results are those of `query`. Runs hold the
 * same two locks as `query`: never inside another caller's open transaction.
 */
function preparedStatements(pg: PGlite) {
  const { serialize } = protocol;
  const statements = new Map<string, { sql: string; paramTypes: number[] }>();

  async function prepare(name: string, sql: string): Promise<number[]> {
    const known = statements.get(name);
    if (known) {
      if (known.sql !== sql) throw new Error(`prepared statement ${name} already has another text`);
      return known.paramTypes;
    }
    const { messages } = await pg.execProtocol(
      concat([
        serialize.parse({ name, text: sql }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
    );
    const paramTypes = parse.parseDescribeStatementResults(messages);
    statements.set(name, { sql, paramTypes });
    return paramTypes;
  }

  return {
    async run<T>(name: string, sql: string, params: readonly unknown[]): Promise<T[]> {
      return pg._runExclusiveTransaction(() =>
        pg._runExclusiveQuery(async () => {
          const paramTypes = await prepare(name, sql);
          const values = params.map((param, i) => {
            if (param === null || param === undefined) return null;
            const serializer = pg.serializers[paramTypes[i] ?? 0];
            return serializer ? (serializer(param) as string) : String(param);
          });
          try {
            const { messages } = await pg.execProtocol(
              concat([
                serialize.bind({ statement: name, values }),
                serialize.describe({ type: 'P' }),
                serialize.execute({}),
                serialize.sync(),
              ]),
            );
            return (parse.parseResults(messages, pg.parsers)[0]?.rows ?? []) as T[];
          } catch (err) {
            // Prepared statement unknown to the backend: prepare it again next time.
            if ((err as { code?: unknown }).code === '26000') statements.delete(name);
            throw err;
          }
        }),
      );
    },
  };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const dumpers = new WeakMap<Db, () => Promise<Blob>>();

/** The whole cluster of an embedded database as a tarball, to open copies of it fast (tests). */
export async function dumpPglite(db: Db): Promise<Blob> {
  const dump = dumpers.get(db);
  if (!dump) throw new Error('not an embedded database');
  return dump();
}
