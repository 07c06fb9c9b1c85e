import {
  ZConnectorConfigPatch,
  ZImportRecordsEnvelope,
  ZImportResult,
  ZTransactionsEnvelope,
  type TConnectorConfigPatch,
  type TImportResult,
  type TPayloadIssue,
} from '@synchro/contracts';
import type { MessagePort } from 'node:worker_threads';
import type { z } from 'zod';
import { parseJsonBytes } from '../../http/json-body.ts';
import { envelopeItemRanges } from '../../http/json-items.ts';
import { parseConnectorOr400 } from '../../http/validate.ts';
import { defineTask } from '../../offload/task.ts';
import { refuseIfIssues } from './item-checks.ts';
import { prepareRecords, type RecordRow } from './record-rows.ts';
import { prepareTransactions, type TransactionRow } from './transaction-rows.ts';

/**
 * The bodies of the connector's big requests read and checked whole, in a worker thread
 * (offload-worker.ts) once they pass OFFLOAD_MIN_BYTES: the JSON, its envelope, every item. A
 * fault anywhere is the 400 naming each one; nothing is written yet.
 */

export interface BatchBody {
  body: Uint8Array;
  /** The installation's zone, for times without offset. */
  zone: string;
}

export interface CheckedBatch<R> {
  rows: R[];
  /** Items of the batch (duplicates are the items not inserted). */
  count: number;
}

function checkedBatch<T, R>(
  items: readonly T[],
  prepare: (items: readonly T[], offset: number, issues: TPayloadIssue[]) => R[],
): CheckedBatch<R> {
  const issues: TPayloadIssue[] = [];
  const rows = prepare(items, 0, issues);
  refuseIfIssues(issues);
  return { rows, count: items.length };
}

/**
 * A big body checked in a worker thread and given back slice by slice as it is checked, so that
 * the request thread writes the first rows while the worker checks the next ones (batch.ts,
 * streamedSlices). `port`: where the messages go (BatchMessage), in this order: the items' count
 * once the body's envelope is known, the rows of each slice of `slice` items while no fault is
 * found, then the faults found in the whole batch (none: the batch is whole). A body that is not
 * JSON, or not the envelope, throws before any message when that is seen at once, or later (an
 * item that is not JSON, not UTF-8): either way nothing is written, with the message of a body
 * read whole.
 */
export interface StreamedBatchBody extends BatchBody {
  port: MessagePort;
  /** Items per message. */
  slice: number;
}

export type BatchMessage<R> = { count: number } | { rows: R[] } | { issues: TPayloadIssue[] };

/** The items of a batch body, read a slice at a time. */
interface BodyItems {
  count: number;
  slice: (from: number, to: number) => unknown[];
}

/**
 * The items of `{"<name>": [ … ]}` checked with `envelope`. A body of plainly that shape
 * (http/json-items.ts) is only located here: each slice's items are decoded and parsed when asked
 * for, so that the first rows leave before the rest is read. Any other body is read whole. An item
 * that does not read means the body would not either: the body is then read whole for its error
 * (invalid UTF-8 anywhere first, then invalid JSON, as for a body read whole).
 */
export function bodyItems(
  body: Uint8Array,
  name: string,
  envelope: z.ZodType<Record<string, unknown[]>>,
): BodyItems {
  const whole = (): BodyItems => {
    const items = parseConnectorOr400(envelope, parseJsonBytes(body))[name] as unknown[];
    return { count: items.length, slice: (from, to) => items.slice(from, to) };
  };
  const ranges = envelopeItemRanges(body, name);
  if (ranges === null) return whole();
  const count = ranges.starts.length;
  // The envelope's own checks (a list, its largest size) with its own messages: the items
  // themselves are not its business (z.unknown()).
  parseConnectorOr400(envelope, { [name]: new Array<null>(count).fill(null) });
  let fallback: BodyItems | null = null;
  return {
    count,
    slice(from, to) {
      if (fallback) return fallback.slice(from, to);
      const items: unknown[] = [];
      try {
        for (let k = from; k < Math.min(to, count); k++) {
          items.push(parseJsonBytes(body.subarray(ranges.starts[k], ranges.ends[k])));
        }
      } catch {
        // Throws the body's own error; were it to read whole after all, its items are used.
        fallback = whole();
        return fallback.slice(from, to);
      }
      return items;
    },
  };
}

function streamedBatch<R>(
  items: BodyItems,
  { port, slice }: StreamedBatchBody,
  prepare: (items: readonly unknown[], offset: number, issues: TPayloadIssue[]) => R[],
): number {
  const post = (message: BatchMessage<R>) => port.postMessage(message);
  post({ count: items.count });
  const issues: TPayloadIssue[] = [];
  const size = Math.max(1, slice);
  for (let offset = 0; offset < items.count; offset += size) {
    const rows = prepare(items.slice(offset, offset + size), offset, issues);
    // Past a fault nothing is written: the rest is only checked, so that the 400 names every fault.
    if (issues.length === 0) post({ rows });
  }
  post({ issues });
  return items.count;
}

export const streamRecordsTask = defineTask('connector.import-records.stream', (input: StreamedBatchBody) =>
  streamedBatch(
    bodyItems(input.body, 'records', ZImportRecordsEnvelope),
    input,
    (items, offset, issues): RecordRow[] => prepareRecords(items, input.zone, offset, issues),
  ),
);

export const streamTransactionsTask = defineTask(
  'connector.transactions.stream',
  (input: StreamedBatchBody) =>
    streamedBatch(
      bodyItems(input.body, 'transactions', ZTransactionsEnvelope),
      input,
      (items, offset, issues): TransactionRow[] => prepareTransactions(items, input.zone, offset, issues),
    ),
);

export const checkRecordsTask = defineTask('connector.import-records', ({ body, zone }: BatchBody) => {
  const { records } = parseConnectorOr400(ZImportRecordsEnvelope, parseJsonBytes(body));
  return checkedBatch(records, (items, offset, issues): RecordRow[] =>
    prepareRecords(items, zone, offset, issues),
  );
});

export const checkTransactionsTask = defineTask('connector.transactions', ({ body, zone }: BatchBody) => {
  const { transactions } = parseConnectorOr400(ZTransactionsEnvelope, parseJsonBytes(body));
  return checkedBatch(transactions, (items, offset, issues): TransactionRow[] =>
    prepareTransactions(items, zone, offset, issues),
  );
});

export const checkConfigurationPatchTask = defineTask(
  'connector.configuration-patch',
  ({ body }: { body: Uint8Array }): TConnectorConfigPatch =>
    parseConnectorOr400(ZConnectorConfigPatch, parseJsonBytes(body)),
);

export const checkResultTask = defineTask(
  'connector.import-result',
  ({ body }: { body: Uint8Array }): TImportResult => parseConnectorOr400(ZImportResult, parseJsonBytes(body)),
);
