import { parentPort } from 'node:worker_threads';
import {
  errorData,
  type DbAnswer,
  type DbNotification,
  type DbRequest,
} from './db/pglite-thread-protocol.ts';
import { openPglite } from './db/pglite.ts';
import type { Db, Queryable } from './db/types.ts';

/**
 * The thread of the embedded database (db/pglite-thread.ts; bundled as dist/db-worker.js): PGlite
 * runs here, so that a long statement holds this thread, not the one answering requests.
 */
const port = parentPort;
if (!port) throw new Error('db-worker runs as a worker thread');

let db: Db | null = null;
/** Open transactions: the statements sent for each, waiting for its turn. */
const transactions = new Map<number, { waiting: DbRequest[]; wake: (() => void) | null }>();
const ROLLBACK = Symbol('rollback');

const answer = (message: DbAnswer) => port.postMessage(message);
const fail = (id: number, err: unknown) => answer({ id, error: errorData(err) });

function opened(): Db {
  if (!db) throw new Error('base de données embarquée non ouverte');
  return db;
}

async function run(on: Queryable, request: DbRequest & { t: 'query' | 'exec' }): Promise<void> {
  try {
    if (request.t === 'exec') {
      await on.exec(request.sql);
      answer({ id: request.id, rows: [] });
    } else {
      const options = request.prepare ? { prepare: request.prepare } : {};
      answer({ id: request.id, rows: await on.query(request.sql, request.params, options) });
    }
  } catch (err) {
    fail(request.id, err);
  }
}

async function nextOf(state: { waiting: DbRequest[]; wake: (() => void) | null }): Promise<DbRequest> {
  while (state.waiting.length === 0) await new Promise<void>((resolve) => (state.wake = resolve));
  return state.waiting.shift() as DbRequest;
}

function begin(id: number, tx: number): void {
  const state = { waiting: [] as DbRequest[], wake: null as (() => void) | null };
  transactions.set(tx, state);
  let began = false;
  let endId = id;
  opened()
    .transaction(async (q) => {
      began = true;
      answer({ id, rows: [] });
      for (;;) {
        const next = await nextOf(state);
        if (next.t === 'end') {
          endId = next.id;
          if (!next.commit) throw ROLLBACK;
          return;
        }
        if (next.t === 'query' || next.t === 'exec') await run(q, next);
      }
    })
    .then(
      () => answer({ id: endId, rows: [] }),
      (err: unknown) => {
        if (err === ROLLBACK) answer({ id: endId, rows: [] });
        else fail(began ? endId : id, err);
      },
    )
    .finally(() => transactions.delete(tx));
}

port.on('message', (request: DbRequest) => {
  switch (request.t) {
    case 'open':
      openPglite(request.dataDir).then(
        (opened) => {
          db = opened;
          answer({ id: request.id, rows: [] });
        },
        (err: unknown) => fail(request.id, err),
      );
      return;
    case 'query':
    case 'exec':
    case 'end': {
      if (request.tx !== undefined) {
        const state = transactions.get(request.tx);
        if (!state) return fail(request.id, new Error('transaction inconnue'));
        state.waiting.push(request);
        state.wake?.();
        state.wake = null;
        return;
      }
      if (request.t === 'end') return fail(request.id, new Error('transaction inconnue'));
      void run(opened(), request);
      return;
    }
    case 'begin':
      begin(request.id, request.tx);
      return;
    case 'listen': {
      const channel = request.channel;
      const forward = (payload: string) =>
        port.postMessage({ notify: channel, payload } satisfies DbNotification);
      (opened().listen?.(channel, forward) ?? Promise.reject(new Error('listen indisponible'))).then(
        () => answer({ id: request.id, rows: [] }),
        (err: unknown) => fail(request.id, err),
      );
      return;
    }
    case 'close':
      (db?.close() ?? Promise.resolve()).then(
        () => answer({ id: request.id, rows: [] }),
        (err: unknown) => fail(request.id, err),
      );
      return;
  }
});
