import type { TConnectorBatchAnswer, TPayloadIssue, TTransaction } from '@synchro/contracts';
import type { Db } from '../../db/types.ts';
import { concurrentBatch, firstOfEachId, refuseIfIssues, shownText, utcInstant } from './batch.ts';

/**
 * Transactions (docs/connector-api.md): a batch stored all or nothing in one statement,
 * idempotent on `ID` within the installation. Short texts are stored decoded; the `ID` and the
 * `Log` exactly as sent.
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

/** The rows of a validated batch; 400 naming every faulty field and its index, nothing written. */
export function prepareTransactions(transactions: readonly TTransaction[], zone: string): TransactionRow[] {
  const issues: TPayloadIssue[] = [];
  const rows = transactions.map((t, i): TransactionRow => ({
    txId: t.ID,
    err: t.Err,
    dateHeureTrt: utcInstant(t.DateHeureTrt, zone, `transactions[${i}].DateHeureTrt`, issues),
    numTransaction: shownText(t.NumTransaction),
    typeDoc: shownText(t.TypeDoc),
    refDoc: shownText(t.RefDoc),
    idTablette: shownText(t.IDTablette),
    libelleTablette: shownText(t.LibelleTablette),
    log: t.Log,
  }));
  refuseIfIssues(issues);
  return rows;
}

const INSERT_TRANSACTIONS = `INSERT INTO transaction_logs (installation_id, tx_id, err, date_heure_trt,
    num_transaction, type_doc, ref_doc, id_tablette, libelle_tablette, log, received_at)
  SELECT $1, t.*, $11
  FROM unnest($2::text[], $3::smallint[], $4::timestamptz[], $5::text[], $6::text[], $7::text[], $8::text[],
    $9::text[], $10::text[]) AS t
  ON CONFLICT (installation_id, tx_id) DO NOTHING`;

/**
 * POST /api/connector/v1/transactions: one statement (atomic on its own). A transaction already
 * stored (or earlier in the same batch) is left as it is and counted as a duplicate.
 */
export async function insertTransactions(
  db: Db,
  installationId: string,
  rows: readonly TransactionRow[],
  now: Date,
): Promise<TConnectorBatchAnswer> {
  const unique = firstOfEachId(rows, (r) => r.txId);
  if (unique.length === 0) return { inserted: 0, duplicates: rows.length };
  try {
    // One statement: atomic on its own, no transaction round trips needed.
    const [row] = await db.query<{ n: number }>(
      `WITH inserted AS (${INSERT_TRANSACTIONS} RETURNING 1) SELECT count(*)::int AS n FROM inserted`,
      [
        installationId,
        unique.map((r) => r.txId),
        unique.map((r) => r.err),
        unique.map((r) => r.dateHeureTrt),
        unique.map((r) => r.numTransaction),
        unique.map((r) => r.typeDoc),
        unique.map((r) => r.refDoc),
        unique.map((r) => r.idTablette),
        unique.map((r) => r.libelleTablette),
        unique.map((r) => r.log),
        now,
      ],
    );
    const inserted = row?.n ?? 0;
    return { inserted, duplicates: rows.length - inserted };
  } catch (err) {
    throw concurrentBatch(err);
  }
}
