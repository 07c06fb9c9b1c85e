import {
  ZConnectorConfigPatch,
  ZImportRecordsEnvelope,
  ZImportResult,
  ZTransactionsEnvelope,
  type TConnectorConfigPatch,
  type TImportResult,
  type TPayloadIssue,
} from '@synchro/contracts';
import { parseJsonBytes } from '../../http/json-body.ts';
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
