import { Worker } from 'node:worker_threads';
import { workerEntry } from '../worker-entry.ts';
import { errorFrom, type DbAnswer, type DbNotification, type DbRequest } from './pglite-thread-protocol.ts';
import { setLocal } from './transaction-settings.ts';
import { ANY_CHANGE, type Db, type Queryable, type QueryOptions } from './types.ts';

/** A request without its id (given when it is sent). */
type Outgoing = DbRequest extends infer R ? (R extends DbRequest ? Omit<R, 'id'> : never) : never;

/**
 * The embedded database in a thread of its own (db-worker.ts), behind the same `Db` as in the
 * server's thread (db/pglite.ts). PGlite runs each statement synchronously: in the request
 * thread, a statement writing a big batch, or a checkpoint, held every installation's requests
 * (bench/noisy-neighbour: event-loop delay p99 159 ms, docs/server.md « Partage équitable »).
 * Here only the messages are the request thread's work. Statements and transactions keep
 * PGlite's order: one at a time, a transaction's statements only inside it.
 */
export async function openPgliteInThread(dataDir: string): Promise<Db> {
  const { filename, execArgv } = workerEntry('db-worker');
  const worker =
    execArgv.length === 0
      ? new Worker(new URL(filename))
      : // From the sources (tests): tsx's loader registered in the thread before the module loads
        // (`--import tsx` in a worker's execArgv does not apply to its entry).
        new Worker(
          `const load = new Function('s', 'return import(s)');
           load('tsx/esm/api').then(({ register }) => (register(), load(${JSON.stringify(filename)})));`,
          { eval: true },
        );
  const pending = new Map<number, { resolve: (rows: unknown[]) => void; reject: (err: Error) => void }>();
  let nextId = 0;
  let nextTx = 0;
  let stopped: Error | null = null;

  const stopAll = (err: Error) => {
    stopped = err;
    for (const { reject } of pending.values()) reject(err);
    pending.clear();
  };
  const listeners = new Map<string, ((payload: string) => void)[]>();
  worker.on('message', (message: DbAnswer | DbNotification) => {
    if ('notify' in message) {
      for (const listener of listeners.get(message.notify) ?? []) listener(message.payload);
      return;
    }
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if ('error' in message) waiting.reject(errorFrom(message.error));
    else waiting.resolve(message.rows ?? []);
  });
  worker.on('error', (err) => stopAll(err));
  worker.on('exit', (code) =>
    stopAll(new Error(`le fil de la base de données embarquée s’est arrêté (${code})`)),
  );

  const call = (request: Outgoing): Promise<unknown[]> => {
    if (stopped) return Promise.reject(stopped);
    const id = ++nextId;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });
  };

  const queryable = (tx?: number): Queryable => ({
    async query<T>(sql: string, params: readonly unknown[] = [], options: QueryOptions = {}) {
      const prepare = tx === undefined ? options.prepare : undefined;
      return (await call({
        t: 'query',
        sql,
        params,
        ...(prepare ? { prepare } : {}),
        ...(tx ? { tx } : {}),
      })) as T[];
    },
    async exec(sql: string) {
      await call({ t: 'exec', sql, ...(tx ? { tx } : {}) });
    },
  });

  try {
    await call({ t: 'open', dataDir });
  } catch (err) {
    await worker.terminate();
    throw err;
  }
  const runTransaction: Db['transaction'] = async (fn, settings) => {
    const tx = ++nextTx;
    await call({ t: 'begin', tx });
    const sets = setLocal(settings);
    let result;
    try {
      if (sets !== null) await call({ t: 'exec', sql: sets, tx });
      result = await fn(queryable(tx));
    } catch (err) {
      await call({ t: 'end', tx, commit: false }).catch(() => {});
      throw err;
    }
    await call({ t: 'end', tx, commit: true });
    return result;
  };

  const root = queryable();
  let openTransactions = 0;
  return {
    kind: 'pglite',
    query: root.query,
    async exec(sql) {
      try {
        await root.exec(sql);
      } catch (err) {
        for (const list of listeners.values()) for (const listener of list) listener(ANY_CHANGE);
        throw err;
      }
    },
    inTransaction: () => openTransactions > 0,
    async transaction(fn, settings) {
      openTransactions += 1;
      try {
        return await runTransaction(fn, settings);
      } finally {
        openTransactions -= 1;
      }
    },

    async listen(channel, listener) {
      const known = listeners.get(channel);
      if (known) known.push(listener);
      else {
        listeners.set(channel, [listener]);
        await call({ t: 'listen', channel });
      }
    },
    async close() {
      if (stopped) return;
      try {
        await call({ t: 'close' });
      } finally {
        await worker.terminate();
      }
    },
  };
}
