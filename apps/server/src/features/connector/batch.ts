import { parseConnectorItem, type TConnectorBatchAnswer, type TPayloadIssue } from '@synchro/contracts';
import type { z } from 'zod';
import { decodeConnectorText } from '@synchro/config-xml';
import type { Db, Queryable } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { connectorInvalid } from '../../http/validate.ts';
import { connectorInstant } from '../../time/connector-time.ts';

/**
 * What both batch routes (import records, transactions) share: times read in the installation's
 * zone, the decoded short texts, the batch written in one transaction while it is checked, and the
 * one answer when two batches with the same ids meet.
 */

/** The UTC instant of a connector time (already checked by the schema) in `zone`. */
export function utcInstant(value: string, zone: string, path: string, issues: TPayloadIssue[]): Date {
  const instant = connectorInstant(value, zone);
  if (instant === null || Number.isNaN(instant.getTime())) {
    issues.push({ path, message: 'date et heure ISO 8601 attendues' });
    return new Date(0);
  }
  return instant;
}

/**
 * The rows of a slice of a batch's items: each checked with `schema`, then turned into its row by
 * `toRow` (which may add faults of its own under `path`). Faults are named with the item's index
 * in the batch (`records[12].DateHeure`); an item its schema refuses gives no row.
 */
export function checkedRows<S extends z.ZodType, R>(
  schema: S,
  items: readonly unknown[],
  name: string,
  offset: number,
  issues: TPayloadIssue[],
  toRow: (value: z.output<S>, path: string) => R,
): R[] {
  const rows: R[] = [];
  items.forEach((item, k) => {
    const path = `${name}[${offset + k}]`;
    const checked = parseConnectorItem(schema, item, path);
    if (checked.ok) rows.push(toRow(checked.value, path));
    else issues.push(...checked.issues);
  });
  return rows;
}

/** A short text as the console shows, searches and exports it: decoded from the convention. */
export const shownText = decodeConnectorText;

/** Throws the 400 naming every field found wrong in the batch, when there is one. */
export function refuseIfIssues(issues: readonly TPayloadIssue[]): void {
  if (issues.length > 0) throw connectorInvalid(issues);
}

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

export interface BatchSteps<T, R> {
  /** Most items per statement. */
  chunkSize: number;
  /** The rows of a slice of items (`offset`: index of its first item); faults go to `issues`. */
  prepare: (slice: readonly T[], offset: number, issues: TPayloadIssue[]) => R[];
  idOf: (row: R) => string;
  /**
   * One multi-row statement (and what belongs with it); resolves to the rows inserted. `standard`:
   * the rows are one of the batch's standard statement sizes (a slice, a chunk), so the statement
   * may be a named, prepared one (a handful of texts per connection, planned once).
   */
  write: (tx: Queryable, rows: R[], standard: boolean) => Promise<number>;
  /** Last, in the batch's transaction once every row is written (the emails it causes). */
  finish?: (tx: Queryable) => Promise<void>;
}

/**
 * Items checked between two looks at the database: a tenth of a statement on PostgreSQL (another
 * process, another core). The embedded database works on this very thread, so nothing overlaps
 * there: a whole statement's items are checked at a time (fewer, larger statements).
 */
export function checkSliceSize(kind: Db['kind'], chunkSize: number): number {
  return kind === 'pglite' ? chunkSize : Math.max(1, Math.ceil(chunkSize / 10));
}

/**
 * A batch, all or nothing, in one transaction. The items are checked a slice at a time
 * (checkSliceSize). The first slice checked leaves at once as one multi-row statement; then,
 * whenever the database is free and a whole chunk is checked, the chunk leaves; what is left at the
 * end leaves last. Checking goes on while the database writes, so the database starts after one
 * slice and, checking an item taking less than writing it, seldom waits; statements of the same
 * few sizes can be prepared once per connection (`standard`). A fault is still gathered with all
 * the others, nothing more is sent, and the transaction is rolled back: the answer is the 400
 * naming every fault, and nothing is written. An id already met earlier in the batch is a
 * duplicate (the first one is kept), like an id already stored.
 */
export async function writeBatch<T, R>(
  db: Db,
  items: readonly T[],
  steps: BatchSteps<T, R>,
): Promise<TConnectorBatchAnswer> {
  const issues: TPayloadIssue[] = [];
  const seen = new Set<string>();
  const slice = checkSliceSize(db.kind, steps.chunkSize);
  let inserted = 0;
  try {
    await db.transaction(async (tx) => {
      let failure: unknown = null;
      let ready: R[] = [];
      let writing: Promise<void> | null = null;
      let checkedAll = false;
      let sent = 0;
      const sendReady = (): void => {
        if (writing !== null || failure !== null || issues.length > 0 || ready.length === 0) return;
        const size = sent === 0 ? slice : steps.chunkSize;
        if (ready.length < size && !checkedAll) return;
        const rows = ready.slice(0, size);
        ready = ready.slice(rows.length);
        sent += 1;
        writing = steps
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
            writing = null;
            sendReady();
          });
      };
      for (let offset = 0; offset < items.length; offset += slice) {
        const rows = steps.prepare(items.slice(offset, offset + slice), offset, issues);
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
      checkedAll = true;
      sendReady();
      while (writing !== null) await writing;
      if (failure !== null) throw failure;
      refuseIfIssues(issues);
      await steps.finish?.(tx);
    });
  } catch (err) {
    throw concurrentBatch(err);
  }
  return { inserted, duplicates: items.length - inserted };
}
