import type { TConnectorBatchAnswer, TPayloadIssue } from '@synchro/contracts';
import type { AppContext } from '../../context.ts';
import type { Db, Queryable } from '../../db/types.ts';
import { attachBlobs, deleteBlobs, writeApart, type ApartCandidate } from '../../domain/blobs.ts';
import { AppError } from '../../http/errors.ts';
import { connectorErrorBody } from '../../http/connector-api.ts';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { OFFLOAD_MIN_BYTES, runOnBody, transferable, type Offload } from '../../offload/pool.ts';
import type { OffloadTask } from '../../offload/task.ts';
import type { BatchKindName } from '../../metrics/registry.ts';
import type { BatchBody, BatchMessage, CheckedBatch, StreamedBatchBody } from './checked-batches.ts';
import { refuseIfIssues } from './item-checks.ts';
import { BATCH_COUNTS, countBatch, type BatchCounter } from './batch-counts.ts';
import type { TransactionSettings } from '../../db/transaction-settings.ts';

/**
 * What both batch routes (import records, transactions) share: the batch written in one
 * transaction while it is checked, big values written apart first, and the one answer when two
 * batches with the same ids meet. The checks of the items themselves: item-checks.ts.
 */

/**
 * Two batches sharing ids, written at the same moment in different orders, can wait on each
 * other: PostgreSQL then stops one (deadlock, or a serialization failure). Its sender is told to
 * send it again; nothing of it was written.
 */
export function concurrentBatch(err: unknown): unknown {
  const code = (err as { code?: unknown }).code;
  if (code === '40P01' || code === '40001') {
    return new AppError(
      409,
      'Un autre envoi des mêmes éléments était en cours : rien n’a été enregistré de celui-ci, renvoyez-le.',
      'conflict',
    );
  }
  return err;
}

export interface BatchSteps<R> {
  /** Most items per statement. */
  chunkSize: number;
  idOf: (row: R) => string;
  /**
   * One multi-row statement (and what belongs with it); resolves to the rows inserted. `standard`:
   * the rows are one of the batch's standard statement sizes (a slice, a chunk), so the statement
   * may be a named, prepared one (a handful of texts per connection, planned once).
   */
  write: (tx: Queryable, rows: R[], standard: boolean) => Promise<number>;
  /**
   * Characters a row carries (its big texts): a statement carries at most STATEMENT_CHARS of
   * them, so that serialising it never holds the request thread long (node-postgres builds a
   * statement's message in one synchronous call: 98 ms for 100 records of 160 KB).
   */
  charsOf?: (row: R) => number;
  /**
   * Last step of the transaction, once every row is written: values written apart attached, the
   * emails the batch causes (domain/mail-*.ts).
   */
  finish?: (tx: Queryable) => Promise<void>;
  /** Settings of the batch's transaction (batch-counts.ts). */
  settings?: TransactionSettings;
  /**
   * Statements sent before the answer to the first of them (1 when not given): see
   * statementsInFlight. Together they carry at most STATEMENT_CHARS of big texts (but a
   * statement alone always leaves).
   */
  inFlight?: number;
}

/**
 * Statements of a batch in flight at once. PostgreSQL's connections pipeline their queries
 * (db/postgres.ts): the next statement's bytes are at the database when it finishes the one before,
 * instead of being serialised and sent only once its answer is back (bench/README.md, « Connector
 * API: ingestion », eighth pass). The embedded database runs on this very thread: nothing to overlap.
 */
export function statementsInFlight(kind: Db['kind']): number {
  return kind === 'pglite' ? 1 : 4;
}

/**
 * The checked rows of a batch, slice by slice: each step checks the next slice (its faults go to
 * `issues`) and gives its rows. Either the items checked on this thread as the database writes
 * (sliceChecks), or rows a worker thread checked before (checkedSlices).
 */
export interface RowSlices<R> {
  /** Rows of the first slice (the first statement, sent as soon as it is ready). */
  first: number;
  slices: (issues: TPayloadIssue[]) => Iterable<R[]> | AsyncIterable<R[]>;
}

/** The items of a batch checked slice by slice on this thread, with `prepare`. */
export function sliceChecks<T, R>(
  kind: Db['kind'],
  chunkSize: number,
  items: readonly T[],
  prepare: (slice: readonly T[], offset: number, issues: TPayloadIssue[]) => R[],
): RowSlices<R> {
  const slice = checkSliceSize(kind, chunkSize);
  return {
    first: slice,
    *slices(issues) {
      for (let offset = 0; offset < items.length; offset += slice) {
        yield prepare(items.slice(offset, offset + slice), offset, issues);
      }
    },
  };
}

/** Rows already checked (by a worker), given a statement's worth at a time. */
export function checkedSlices<R>(rows: readonly R[], chunkSize: number): RowSlices<R> {
  return {
    first: chunkSize,
    *slices() {
      for (let offset = 0; offset < rows.length; offset += chunkSize)
        yield rows.slice(offset, offset + chunkSize);
    },
  };
}

/**
 * Rows a worker thread checks and posts slice by slice as it goes (checked-batches.ts,
 * streamedBatch), read from `port`: `count` resolves once the worker has read the body (it
 * rejects, and no slice comes, when the body is refused whole: not JSON, not the envelope); the
 * slices come as they are checked, the worker's faults join `issues` at the end. `done` is the
 * worker's task: its failure ends the slices with that error.
 */
export function streamedSlices<R>(
  port: MessagePort,
  first: number,
  done: Promise<unknown>,
): RowSlices<R> & { count: Promise<number> } {
  const queue: Exclude<BatchMessage<R>, { count: number }>[] = [];
  let failure: { error: unknown } | null = null;
  let wake: (() => void) | null = null;
  let counted: (n: number) => void = () => {};
  let refused: (err: unknown) => void = () => {};
  const count = new Promise<number>((resolve, reject) => {
    counted = resolve;
    refused = reject;
  });
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  port.on('message', (message: BatchMessage<R>) => {
    if ('count' in message) counted(message.count);
    else queue.push(message);
    notify();
  });
  // A task that ends without its last message (refused, or failed) ends the slices.
  done.then(
    () => {},
    (error: unknown) => {
      failure = { error };
      refused(error);
      notify();
    },
  );
  return {
    first,
    count,
    async *slices(issues) {
      for (;;) {
        const message = queue.shift();
        if (message === undefined) {
          if (failure !== null) throw failure.error;
          await new Promise<void>((resolve) => (wake = resolve));
          continue;
        }
        if ('issues' in message) {
          issues.push(...message.issues);
          return;
        }
        yield message.rows;
      }
    },
  };
}

/**
 * Items checked between two looks at the database: a tenth of a statement on PostgreSQL (another
 * process, another core). The embedded database works on this very thread, so nothing overlaps
 * there: a whole statement's items are checked at a time (fewer, larger statements).
 */
/** Characters of big texts one statement of a batch carries at most (see BatchSteps.charsOf). */
export const STATEMENT_CHARS = 4 * 1024 * 1024;

/**
 * How many of `rows` the next statement takes: at most `size`, and STATEMENT_CHARS (at least one);
 * with the characters of big texts they carry.
 */
export function rowsWithin<R>(
  rows: readonly R[],
  size: number,
  charsOf?: (row: R) => number,
): { count: number; chars: number } {
  const most = Math.min(size, rows.length);
  if (!charsOf) return { count: most, chars: 0 };
  let chars = 0;
  for (let n = 0; n < most; n++) {
    const next = chars + charsOf(rows[n] as R);
    if (n > 0 && next > STATEMENT_CHARS) return { count: n, chars };
    chars = next;
  }
  return { count: most, chars };
}

export function checkSliceSize(kind: Db['kind'], chunkSize: number): number {
  return kind === 'pglite' ? chunkSize : Math.max(1, Math.ceil(chunkSize / 10));
}

/**
 * A batch of `itemCount` items, all or nothing, in one transaction. The rows come slice by slice
 * (RowSlices). The first slice leaves at once as one multi-row statement; then, whenever fewer
 * than `steps.inFlight` statements await their answer and a whole chunk is ready, the chunk
 * leaves; what is left at the end leaves last. Checking goes on while the database writes, so the
 * database starts after one slice and, checking an item taking less than writing it, seldom waits; statements of the same few sizes
 * can be prepared once per connection (`standard`). A fault is still gathered with all the
 * others, nothing more is sent, and the transaction is rolled back: the answer is the 400 naming
 * every fault, and nothing is written. An id already met earlier in the batch is a duplicate (the
 * first one is kept), like an id already stored.
 */
export async function writeBatch<R>(
  db: Db,
  itemCount: number,
  source: RowSlices<R>,
  steps: BatchSteps<R>,
): Promise<TConnectorBatchAnswer> {
  const issues: TPayloadIssue[] = [];
  const seen = new Set<string>();
  let inserted = 0;
  try {
    await db.transaction(async (tx) => {
      let failure: unknown = null;
      let ready: R[] = [];
      const writing = new Set<Promise<void>>();
      let charsInFlight = 0;
      let checkedAll = false;
      let sent = 0;
      const most = Math.max(1, steps.inFlight ?? 1);
      const sendReady = (): void => {
        while (writing.size < most && failure === null && issues.length === 0 && ready.length > 0) {
          const size = sent === 0 ? source.first : steps.chunkSize;
          const { count, chars } = rowsWithin(ready, size, steps.charsOf);
          if (count === ready.length && count < size && !checkedAll) return;
          if (writing.size > 0 && charsInFlight + chars > STATEMENT_CHARS) return;
          const rows = ready.slice(0, count);
          ready = ready.slice(count);
          sent += 1;
          charsInFlight += chars;
          const written: Promise<void> = steps
            .write(tx, rows, rows.length === size)
            .then(
              (n) => {
                inserted += n;
              },
              (err: unknown) => {
                failure ??= err;
              },
            )
            .then(() => {
              writing.delete(written);
              charsInFlight -= chars;
              sendReady();
            });
          writing.add(written);
        }
      };
      // Every statement sent has answered (each one's end may send another while there are rows).
      const allAnswered = async (): Promise<void> => {
        while (writing.size > 0) await Promise.all(writing);
      };
      try {
        for await (const rows of source.slices(issues)) {
          if (issues.length > 0 || failure !== null) continue;
          for (const row of rows) {
            const id = steps.idOf(row);
            if (seen.has(id)) continue;
            seen.add(id);
            ready.push(row);
          }
          sendReady();
          // Let a finished statement's answer in, so that the next one leaves at once.
          await new Promise((resolve) => setImmediate(resolve));
        }
      } catch (err) {
        // The slices stopped (a body found unreadable late, a worker that failed): no statement
        // leaves any more, and those in flight end before the transaction is rolled back (their
        // end would otherwise send the rows ready after the ROLLBACK, outside any transaction).
        failure ??= err;
        await allAnswered();
        throw err;
      }
      checkedAll = true;
      sendReady();
      await allAnswered();
      if (failure !== null) throw failure;
      refuseIfIssues(issues);
      await steps.finish?.(tx);
    }, steps.settings);
  } catch (err) {
    throw concurrentBatch(err);
  }
  return { inserted, duplicates: itemCount - inserted };
}

/** The rows one statement inserted (the others were stored already), with their ids in the database. */
export interface Inserted<R> {
  rows: R[];
  ids: string[];
}

/** What a batch route says of its rows (ingestBatch). */
export interface BatchKind<R> {
  /** Its name in the metrics (metrics/registry.ts). */
  name: BatchKindName;
  chunkSize: number;
  idOf: (row: R) => string;
  /** The items of a small body (its envelope checked), read on this thread. */
  itemsOf: (body: Uint8Array) => readonly unknown[];
  /** The rows of a slice of items (`offset`: index of its first one); faults go to `issues`. */
  prepare: (slice: readonly unknown[], offset: number, issues: TPayloadIssue[]) => R[];
  /** The same for a big body, whole, in a worker thread. */
  task: OffloadTask<BatchBody, CheckedBatch<R>>;
  /** The same, the rows given back slice by slice as they are checked (no value written apart). */
  streamTask: OffloadTask<StreamedBatchBody, number>;
  /** One multi-row statement; the rows inserted. */
  write: (tx: Queryable, rows: R[], standard: boolean) => Promise<Inserted<R>>;
  /** Counts the rows inserted, once per batch (batch-counts.ts). */
  counter: BatchCounter;
  /** The values of checked rows that may be written apart, each with how its row then changes. */
  apartCandidates: (rows: readonly R[]) => ApartCandidate[];
  /** The values of a row that went apart. */
  blobsOf: (row: R) => string[];
  /** Characters of a row's big texts (BatchSteps.charsOf). */
  charsOf: (row: R) => number;
  /** Last step of the batch's transaction (the emails its rows cause: domain/mail-rules.ts). */
  finish?: (tx: Queryable) => Promise<void>;
}

/**
 * A batch route's body, all or nothing. A small body is read here and its items checked while
 * the previous ones are written (writeBatch); a big one (OFFLOAD_MIN_BYTES) is read and checked
 * whole in a worker thread, its big values written apart first (domain/blobs.ts: the embedded
 * database), then its rows written in one short transaction that attaches the values of the rows
 * it inserted and deletes the others (duplicates). A refused batch deletes what it wrote apart.
 */
export async function ingestBatch<R>(
  ctx: AppContext,
  installation: { id: string; syncId: string },
  body: Uint8Array,
  zone: string,
  kind: BatchKind<R>,
): Promise<TConnectorBatchAnswer> {
  let items = 0;
  try {
    const answer = await ingestBatchRows(ctx, installation.id, body, zone, kind, (n) => (items = n));
    ctx.metrics.connectorRows(kind.name, 'inserted', answer.inserted, installation.syncId);
    ctx.metrics.connectorRows(kind.name, 'duplicate', answer.duplicates, installation.syncId);
    return answer;
  } catch (err) {
    // The items of a refused batch, by the error code the connector reads (invalid-request,
    // insufficient-storage, server-busy…). A big body refused in its worker thread before its list
    // was read (not JSON, not the envelope; any fault on the embedded database) is counted as a
    // refused batch only: its items were not counted here.
    if (err instanceof AppError) {
      const reason = connectorErrorBody(err.status, err.message, err.code).error;
      ctx.metrics.connectorRows(kind.name, 'refused', items, installation.syncId, reason);
    }
    throw err;
  }
}

async function ingestBatchRows<R>(
  ctx: AppContext,
  installationId: string,
  body: Uint8Array,
  zone: string,
  kind: BatchKind<R>,
  counted: (items: number) => void,
): Promise<TConnectorBatchAnswer> {
  const { db } = ctx;
  const kept: string[] = [];
  const added: string[] = [];
  const steps: BatchSteps<R> = {
    chunkSize: kind.chunkSize,
    idOf: kind.idOf,
    charsOf: kind.charsOf,
    write: async (tx, rows, standard) => {
      const inserted = await kind.write(tx, rows, standard);
      for (const row of inserted.rows) kept.push(...kind.blobsOf(row));
      for (const id of inserted.ids) added.push(id);
      return inserted.rows.length;
    },
    // The counters once, after the last row (the insert triggers are skipped: BATCH_COUNTS).
    finish: async (tx) => {
      await countBatch(tx, kind.counter, installationId, added);
      await kind.finish?.(tx);
    },
    settings: BATCH_COUNTS,
    inFlight: statementsInFlight(db.kind),
  };
  if (body.byteLength < OFFLOAD_MIN_BYTES) {
    const items = kind.itemsOf(body);
    counted(items.length);
    const source = sliceChecks(db.kind, kind.chunkSize, items, (slice, offset, issues) =>
      kind.prepare(slice, offset, issues),
    );
    return writeBatch(db, items.length, source, steps);
  }
  const offload = ctx.offload.for(installationId);
  if (!ctx.apart.enabled) return streamBatch(ctx, offload, body, zone, kind, steps, counted);
  const checked = await runOnBody(offload, kind.task, { body, zone });
  counted(checked.count);
  const apart = await writeApart(db, installationId, ctx.apart, kind.apartCandidates(checked.rows));
  try {
    return await writeBatch(db, checked.count, checkedSlices(checked.rows, kind.chunkSize), {
      ...steps,
      finish: async (tx) => {
        await attachBlobs(tx, kept);
        await deleteBlobs(tx, apart);
        await steps.finish?.(tx);
      },
    });
  } catch (err) {
    await deleteBlobs(db, apart).catch(() => {});
    throw err;
  }
}

/**
 * A big body when no value is written apart (PostgreSQL): checked in a worker thread that gives
 * the rows back slice by slice (streamedSlices), written as they come in the batch's one
 * transaction, so that checking and writing overlap as for a small body. The worker reads the
 * items a slice at a time too (checked-batches.ts, bodyItems): the transaction starts once it has
 * located them in the body (a body that is not JSON or not the envelope at once opens none); a
 * fault found later, an item that does not read included, rolls it back. The worker's task is
 * over before the answer, whatever happened.
 */
async function streamBatch<R>(
  ctx: AppContext,
  offload: Offload,
  body: Uint8Array,
  zone: string,
  kind: BatchKind<R>,
  steps: BatchSteps<R>,
  counted: (items: number) => void,
): Promise<TConnectorBatchAnswer> {
  const { port1, port2 } = new MessageChannel();
  const { bytes, buffer } = transferable(body);
  const slice = checkSliceSize(ctx.db.kind, kind.chunkSize);
  const done = offload.run(kind.streamTask, { body: bytes, zone, port: port2, slice }, [buffer, port2]);
  const source = streamedSlices<R>(port1, slice, done);
  try {
    const count = await source.count;
    counted(count);
    return await writeBatch(ctx.db, count, source, steps);
  } finally {
    port1.close();
    await done.catch(() => {});
  }
}
