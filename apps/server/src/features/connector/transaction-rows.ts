import { ZTransaction, type TPayloadIssue } from '@synchro/contracts';
import { checkedRows, shownText, utcInstant } from './item-checks.ts';
import { plainTransaction } from './plain-items.ts';

/**
 * The rows of transactions (docs/connector-api.md): each checked with its schema (ZTransaction),
 * its time read in the installation's zone. Pure: it runs on the request thread for small batches
 * and in a worker thread for big ones (checked-batches.ts).
 */

export interface TransactionRow {
  txId: string;
  err: number;
  dateHeureTrt: Date;
  numTransaction: string;
  typeDoc: string;
  refDoc: string;
  idTablette: string;
  libelleTablette: string;
  /** The whole log, or only its beginning when the log is written apart (`logBlob`). */
  log: string;
  logBlob: string | null;
}

/**
 * The rows of a slice of transactions (`offset`: index of its first one in the batch); faults
 * named with their index, and the faulty one left out.
 */
export function prepareTransactions(
  transactions: readonly unknown[],
  zone: string,
  offset: number,
  issues: TPayloadIssue[],
): TransactionRow[] {
  return checkedRows(
    ZTransaction,
    transactions,
    'transactions',
    offset,
    issues,
    (t, path) => ({
      txId: t.ID,
      err: t.Err,
      dateHeureTrt: utcInstant(t.DateHeureTrt, zone, `${path}.DateHeureTrt`, issues),
      numTransaction: shownText(t.NumTransaction),
      typeDoc: shownText(t.TypeDoc),
      refDoc: shownText(t.RefDoc),
      idTablette: shownText(t.IDTablette),
      libelleTablette: shownText(t.LibelleTablette),
      log: t.Log,
      logBlob: null,
    }),
    plainTransaction,
  );
}
