import type { TConnectorBatchAnswer, TPayloadIssue } from '@synchro/contracts';
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
  /** Items per statement. */
  chunkSize: number;
  /** The rows of a chunk (`offset`: index of its first item); faults go to `issues`. */
  prepare: (chunk: readonly T[], offset: number, issues: TPayloadIssue[]) => R[];
  idOf: (row: R) => string;
  /** One multi-row statement (and what belongs with it); resolves to the rows inserted. */
  write: (tx: Queryable, rows: R[]) => Promise<number>;
}

/**
 * A batch, all or nothing, in one transaction, checked and written chunk by chunk: each chunk is
 * checked, then sent to the database as one multi-row statement, and the next chunk is checked
 * while the database writes it (the server and the database each keep a core busy). A fault in any
 * chunk is still gathered with all the others, nothing more is sent, and the transaction is rolled
 * back: the answer is the 400 naming every fault, and nothing is written. An id already met earlier
 * in the batch is a duplicate (the first one is kept), like an id already stored.
 */
export async function writeBatch<T, R>(
  db: Db,
  items: readonly T[],
  steps: BatchSteps<T, R>,
): Promise<TConnectorBatchAnswer> {
  const issues: TPayloadIssue[] = [];
  const seen = new Set<string>();
  let inserted = 0;
  try {
    await db.transaction(async (tx) => {
      let failure: unknown = null;
      let writes: Promise<void> = Promise.resolve();
      for (let offset = 0; offset < items.length; offset += steps.chunkSize) {
        const rows = steps.prepare(items.slice(offset, offset + steps.chunkSize), offset, issues);
        if (issues.length > 0 || failure !== null) continue;
        const fresh = rows.filter((row) => {
          const id = steps.idOf(row);
          if (seen.has(id)) return false;
          seen.add(id);
          return true;
        });
        if (fresh.length === 0) continue;
        writes = writes
          .then(() => (failure === null ? steps.write(tx, fresh) : 0))
          .then(
            (n) => {
              inserted += n;
            },
            (err: unknown) => {
              failure ??= err;
            },
          );
        // Let the statement leave for the database before the next chunk is checked.
        await new Promise((resolve) => setImmediate(resolve));
      }
      await writes;
      if (failure !== null) throw failure;
      refuseIfIssues(issues);
    });
  } catch (err) {
    throw concurrentBatch(err);
  }
  return { inserted, duplicates: items.length - inserted };
}
