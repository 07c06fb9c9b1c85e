import { ZTransactionsEnvelope, type TConnectorBatchAnswer } from '@synchro/contracts';
import type { AppContext } from '../../context.ts';
import { bySize, valuesList } from '../../db/multi-row.ts';
import type { Db, Queryable } from '../../db/types.ts';
import { LOG_HEAD_CHARS, logHead } from '../../domain/blobs.ts';
import { enqueueArrivals, noArrivals, type MailInstallation } from '../../domain/mail-rules.ts';
import { parseJsonBytes } from '../../http/json-body.ts';
import { parseConnectorOr400 } from '../../http/validate.ts';
import { ingestBatch } from './batch.ts';
import { checkTransactionsTask, streamTransactionsTask } from './checked-batches.ts';
import { prepareTransactions, type TransactionRow } from './transaction-rows.ts';

/**
 * Transactions (docs/connector-api.md): a batch stored all or nothing in one transaction
 * (multi-row statements of TRANSACTIONS_PER_STATEMENT), idempotent on `ID` within the
 * installation. Short texts are stored decoded; the `ID` and the `Log` exactly as sent.
 */

/** Transactions per statement: the next chunk is checked while the database writes one. */
export const TRANSACTIONS_PER_STATEMENT = 500;

/**
 * Transactions per statement on a database of `kind`. PostgreSQL pipelines a batch's statements
 * (batch.ts, statementsInFlight): there half as many per statement leave sooner and overlap more
 * (bench/README.md, « Connector API: ingestion », eighth pass: 0.70–0.75 of the raw INSERT against
 * 0.67–0.70 with 500). The embedded database keeps TRANSACTIONS_PER_STATEMENT.
 */
export function transactionsPerStatement(kind: Db['kind']): number {
  return kind === 'pglite' ? TRANSACTIONS_PER_STATEMENT : TRANSACTIONS_PER_STATEMENT / 2;
}

/** A transaction's values: $1 the installation, $2 the time of receipt, then its own parameters. */
const TRANSACTION_VALUES = '$1 ? ?::smallint ?::timestamptz ? ? ? ? ? ? ?::bigint $2'.split(' ');

/** One multi-row statement; the transactions inserted (the others were stored already): `ID` and database id. */
async function writeTransactions(
  tx: Queryable,
  installationId: string,
  rows: TransactionRow[],
  now: Date,
  standard: boolean,
): Promise<{ id: string; txId: string }[]> {
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
      r.logBlob,
    );
  }
  return tx.query<{ id: string; txId: string }>(
    insertTransactionsStatement(rows.length),
    params,
    standard ? { prepare: `connector_insert_transactions_${rows.length}` } : {},
  );
}

const insertTransactionsStatement = bySize(
  (
    count,
  ) => `INSERT INTO transaction_logs (installation_id, tx_id, err, date_heure_trt, num_transaction, type_doc,
       ref_doc, id_tablette, libelle_tablette, log, log_blob, received_at)
     VALUES ${valuesList(count, 2, TRANSACTION_VALUES)}
     ON CONFLICT (installation_id, tx_id) DO NOTHING
     RETURNING id, tx_id AS "txId"`,
  TRANSACTIONS_PER_STATEMENT,
);

/**
 * POST /api/connector/v1/transactions: all or nothing (ingestBatch); a transaction already
 * stored, or earlier in the same batch, is left as it is and counted as a duplicate. The new
 * transactions in error write their emails in the same transaction (docs/mail.md).
 */
export async function ingestTransactions(
  ctx: AppContext,
  installation: MailInstallation,
  body: Uint8Array,
  zone: string,
  now: Date,
): Promise<TConnectorBatchAnswer> {
  const installationId = installation.id;
  const arrivals = noArrivals();
  return ingestBatch(ctx, installation, body, zone, {
    name: 'transactions',
    chunkSize: transactionsPerStatement(ctx.db.kind),
    idOf: (r) => r.txId,
    itemsOf: (bytes) => parseConnectorOr400(ZTransactionsEnvelope, parseJsonBytes(bytes)).transactions,
    prepare: (slice, offset, issues) => prepareTransactions(slice, zone, offset, issues),
    task: checkTransactionsTask,
    streamTask: streamTransactionsTask,
    write: async (tx, rows, standard) => {
      const stored = await writeTransactions(tx, installationId, rows, now, standard);
      const txIds = new Set(stored.map((r) => r.txId));
      const inserted = rows.filter((r) => txIds.has(r.txId));
      for (const r of inserted) {
        if (r.err !== 1) continue;
        arrivals.failedTransactions.push({
          id: r.txId,
          ref: r.refDoc,
          typeDoc: r.typeDoc,
          terminal: r.libelleTablette || r.idTablette,
          at: r.dateHeureTrt.toISOString(),
        });
      }
      return { rows: inserted, ids: stored.map((r) => r.id) };
    },
    counter: 'transaction_logs_added',
    apartCandidates: (rows) =>
      rows
        .filter((row) => row.log.length > LOG_HEAD_CHARS)
        .map((row) => {
          const text = row.log;
          return { text, moved: (id: string) => ((row.log = logHead(text)), (row.logBlob = id)) };
        }),
    blobsOf: (row) => (row.logBlob === null ? [] : [row.logBlob]),
    charsOf: (row) => row.log.length,
    finish: (tx) => enqueueArrivals(tx, installation, ctx.configs, arrivals, now),
  });
}
