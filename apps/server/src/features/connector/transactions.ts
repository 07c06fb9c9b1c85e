import { ZTransaction, type TConnectorBatchAnswer, type TPayloadIssue } from '@synchro/contracts';
import { valuesList } from '../../db/multi-row.ts';
import type { Db, Queryable } from '../../db/types.ts';
import type { ConfigCache } from '../../domain/config-cache.ts';
import {
  enqueueArrivals,
  noArrivals,
  type Arrivals,
  type MailInstallation,
} from '../../domain/mail-rules.ts';
import { checkedRows, shownText, utcInstant, writeBatch } from './batch.ts';

/**
 * Transactions (docs/connector-api.md): a batch stored all or nothing in one transaction
 * (multi-row statements of TRANSACTIONS_PER_STATEMENT), idempotent on `ID` within the
 * installation. Short texts are stored decoded; the `ID` and the `Log` exactly as sent.
 */

interface TransactionRow {
  txId: string;
  err: number;
  dateHeureTrt: Date;
  numTransaction: string;
  typeDoc: string;
  refDoc: string;
  idTablette: string;
  libelleTablette: string;
  log: string;
}

/** Transactions per statement: the next chunk is checked while the database writes one. */
export const TRANSACTIONS_PER_STATEMENT = 500;

/**
 * The rows of a chunk of transactions: each checked with its schema (ZTransaction) and its time
 * read in the zone; faults named with their index in the batch, and the faulty one left out.
 */
function prepareTransactions(
  transactions: readonly unknown[],
  zone: string,
  offset: number,
  issues: TPayloadIssue[],
): TransactionRow[] {
  return checkedRows(ZTransaction, transactions, 'transactions', offset, issues, (t, path) => ({
    txId: t.ID,
    err: t.Err,
    dateHeureTrt: utcInstant(t.DateHeureTrt, zone, `${path}.DateHeureTrt`, issues),
    numTransaction: shownText(t.NumTransaction),
    typeDoc: shownText(t.TypeDoc),
    refDoc: shownText(t.RefDoc),
    idTablette: shownText(t.IDTablette),
    libelleTablette: shownText(t.LibelleTablette),
    log: t.Log,
  }));
}

/** A transaction's values: $1 the installation, $2 the time of receipt, then its own parameters. */
const TRANSACTION_VALUES = '$1 ? ?::smallint ?::timestamptz ? ? ? ? ? ? $2'.split(' ');

async function writeTransactions(
  tx: Queryable,
  installationId: string,
  rows: TransactionRow[],
  now: Date,
  standard: boolean,
  arrivals: Arrivals,
): Promise<number> {
  const params: unknown[] = [installationId, now];
  for (const r of rows) {
    params.push(
      r.txId,
      r.err,
      r.dateHeureTrt,
      r.numTransaction,
      r.typeDoc,
      r.refDoc,
      r.idTablette,
      r.libelleTablette,
      r.log,
    );
  }
  const [row] = await tx.query<{ n: number; failed: string[] }>(
    `WITH inserted AS (
      INSERT INTO transaction_logs (installation_id, tx_id, err, date_heure_trt, num_transaction, type_doc, ref_doc,
        id_tablette, libelle_tablette, log, received_at)
      VALUES ${valuesList(rows.length, 2, TRANSACTION_VALUES)}
      ON CONFLICT (installation_id, tx_id) DO NOTHING
      RETURNING tx_id, err)
    SELECT count(*)::int AS n, coalesce(array_agg(tx_id) FILTER (WHERE err = 1), '{}') AS failed FROM inserted`,
    params,
    standard ? { prepare: `connector_insert_transactions_${rows.length}` } : {},
  );
  if (row && row.failed.length > 0) {
    // The new transactions in error, for the emails (docs/mail.md).
    const failed = new Set(row.failed);
    for (const r of rows) {
      if (r.err !== 1 || !failed.has(r.txId)) continue;
      failed.delete(r.txId);
      arrivals.failedTransactions.push({
        id: r.txId,
        ref: r.refDoc,
        typeDoc: r.typeDoc,
        terminal: r.libelleTablette || r.idTablette,
        at: r.dateHeureTrt.toISOString(),
      });
    }
  }
  return row?.n ?? 0;
}

/**
 * POST /api/connector/v1/transactions, its envelope checked (ZTransactionsEnvelope): each
 * transaction is checked while the previous ones are written, all or nothing in one transaction
 * (writeBatch). A transaction already stored, or earlier in the same batch, is left
 * as it is and counted as a duplicate. The new ones in error write their emails in the same
 * transaction.
 */
export async function ingestTransactions(
  db: Db,
  installation: MailInstallation,
  transactions: readonly unknown[],
  zone: string,
  now: Date,
  configs: ConfigCache,
): Promise<TConnectorBatchAnswer> {
  const arrivals = noArrivals();
  return writeBatch(db, transactions, {
    chunkSize: TRANSACTIONS_PER_STATEMENT,
    prepare: (chunk, offset, issues) => prepareTransactions(chunk, zone, offset, issues),
    idOf: (r) => r.txId,
    write: (tx, rows, standard) => writeTransactions(tx, installation.id, rows, now, standard, arrivals),
    finish: (tx) => enqueueArrivals(tx, installation, configs, arrivals, now),
  });
}
