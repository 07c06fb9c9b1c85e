import pg from 'pg';
import type { Db, Queryable, QueryOptions } from './types.ts';
import { beginWith } from './transaction-settings.ts';
import { fromDatabase, isDatabaseUnavailable } from './unavailable.ts';

export interface PostgresOptions {
  connectionString: string;
  /** Schema put first in the search path (tests use one schema per file). */
  schema?: string;
  max?: number;
  /** Bound on getting a connection (connecting, or waiting for a free one of the pool). */
  connectionTimeoutMillis?: number;
  /** Bound on one query's answer (`query`, also in a transaction); `exec` has none (migrations). */
  queryTimeoutMillis?: number;
}

/**
 * No request waits for ever on a database that stopped answering (docs/reliability.md): a
 * connection comes within 5 s or the request fails (503, db/unavailable.ts), and a query answers
 * within 60 s (a chunk of `seed-history` takes a few seconds; a request's queries milliseconds).
 */
export const CONNECTION_TIMEOUT_MS = 5_000;
export const QUERY_TIMEOUT_MS = 60_000;

/** PostgreSQL through a node-postgres pool. */
export function openPostgres(options: PostgresOptions): Db {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? CONNECTION_TIMEOUT_MS,
    // A peer gone without a word (a cut network) is noticed instead of waited for.
    keepAlive: true,
    // Queries given to one connection before the previous one answered leave at once, each with
    // its own Sync, answered in order (node-postgres's pipelining): a batch's statements
    // (features/connector/batch.ts). One query at a time behaves as without it.
    pipeline: true,
    ...(options.schema ? { options: `-c search_path=${options.schema},public` } : {}),
  });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {});
  const queryTimeout = options.queryTimeoutMillis ?? QUERY_TIMEOUT_MS;
  // node-postgres reads `query_timeout` per query too; its types only know it per client.
  const bounded = (text: string, values: readonly unknown[], name?: string): pg.QueryConfig =>
    ({
      text,
      values: values as unknown[],
      query_timeout: queryTimeout,
      ...(name ? { name } : {}),
    }) as pg.QueryConfig;
  // Every error of the driver is marked as the database's (db/unavailable.ts).
  const marked = <T>(promise: Promise<T>): Promise<T> =>
    promise.catch((err: unknown) => {
      throw fromDatabase(err);
    });
  const query: Queryable['query'] = async <T>(
    sql: string,
    params: readonly unknown[] = [],
    options: QueryOptions = {},
  ) => {
    // node-postgres prepares a named statement once per pooled connection.
    const res = await marked(pool.query(bounded(sql, params, options.prepare)));
    return res.rows as T[];
  };
  return {
    kind: 'postgres',
    connectionString: options.connectionString,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    query,
    async exec(sql) {
      await marked(pool.query(sql));
    },
    async transaction(fn, settings) {
      const client = await marked(pool.connect());
      let broken: Error | undefined;
      // A checked-out client has no listener of the pool's: its connection lost between two
      // queries of the transaction (PostgreSQL stopped) would be an uncaught error ending the
      // process. The next query fails instead, and the client is dropped.
      const onLost = (err: Error) => (broken = err);
      client.on('error', onLost);
      try {
        await marked(client.query(beginWith(settings)));
        const result = await fn({
          async query<T>(sql: string, params: readonly unknown[] = [], options: QueryOptions = {}) {
            const res = await marked(client.query(bounded(sql, params, options.prepare)));
            return res.rows as T[];
          },
          async exec(sql: string) {
            await marked(client.query(sql));
          },
        });
        await marked(client.query('COMMIT'));
        return result;
      } catch (err) {
        if (isDatabaseUnavailable(err)) {
          // Cut, or a query that never answered: the connection is dropped (PostgreSQL rolls its
          // transaction back) rather than waited for by a ROLLBACK behind that query.
          broken = err as Error;
        } else {
          await client.query('ROLLBACK').catch((rollbackError: unknown) => {
            broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
          });
        }
        throw err;
      } finally {
        client.removeListener('error', onLost);
        client.release(broken);
      }
    },
    async close() {
      await pool.end();
    },
  };
}
