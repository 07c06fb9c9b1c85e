import type { TransactionSettings } from './transaction-settings.ts';

export interface QueryOptions {
  /**
   * Name of a prepared statement for a hot query (the session check of every protected request):
   * parsed and planned once per connection, then only bound and executed. One name, one SQL text.
   * Inside a transaction PostgreSQL prepares it too; PGlite runs it unprepared there.
   */
  prepare?: string;
}

/** What a `listen` listener hears when any change may have been missed (see Db.listen). */
export const ANY_CHANGE = '';

/** Anything that runs parameterised SQL: the database itself or an open transaction. */
export interface Queryable {
  /**
   * Runs one statement with `$1`-style parameters and returns its rows. A transaction's statements
   * run in the order they were given: on PostgreSQL one given before the previous one answered is
   * sent at once (pipelined, db/postgres.ts); once one fails, those after it fail too.
   */
  query<T = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<T[]>;
  /** Runs several statements without parameters (migration files). */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** PostgreSQL: where to open a connection of one's own (the live events' LISTEN, features/live). */
  readonly connectionString?: string;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws.
   * `settings`: set for this transaction only (SET LOCAL, db/transaction-settings.ts).
   */
  transaction<R>(fn: (tx: Queryable) => Promise<R>, settings?: TransactionSettings): Promise<R>;
  close(): Promise<void>;
  /**
   * The embedded database only (one process): `listener` hears each NOTIFY on `channel` once its
   * transaction commits, before the statement that committed it returns (domain/session-cache.ts).
   * PGlite drops the notifications that follow an error in one answer (a multi-statement `exec`
   * that commits, then fails): after a failed `exec` outside a transaction every listener hears
   * ANY_CHANGE.
   */
  listen?(channel: string, listener: (payload: string) => void): Promise<void>;
  /**
   * The embedded database only: whether a transaction is open on it (statements from outside wait
   * for it to end).
   */
  inTransaction?(): boolean;
  /** Connections of the pool (PostgreSQL): open, idle, callers waiting for one. */
  poolStats?(): { total: number; idle: number; waiting: number };
}
