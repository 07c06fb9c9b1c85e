import pg from 'pg';
import type { Db, Queryable, QueryOptions } from './types.ts';

export interface PostgresOptions {
  connectionString: string;
  /** Schema put first in the search path (tests use one schema per file). */
  schema?: string;
  max?: number;
}

/** PostgreSQL through a node-postgres pool. */
export function openPostgres(options: PostgresOptions): Db {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    ...(options.schema ? { options: `-c search_path=${options.schema},public` } : {}),
  });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {});
  const query: Queryable['query'] = async <T>(
    sql: string,
    params: readonly unknown[] = [],
    options: QueryOptions = {},
  ) => {
    // node-postgres prepares a named statement once per pooled connection.
    const res = options.prepare
      ? await pool.query({ name: options.prepare, text: sql, values: params as unknown[] })
      : await pool.query(sql, params as unknown[]);
    return res.rows as T[];
  };
  return {
    kind: 'postgres',
    query,
    async exec(sql) {
      await pool.query(sql);
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn({
          async query<T>(sql: string, params: readonly unknown[] = []) {
            const res = await client.query(sql, params as unknown[]);
            return res.rows as T[];
          },
          async exec(sql: string) {
            await client.query(sql);
          },
        });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}
