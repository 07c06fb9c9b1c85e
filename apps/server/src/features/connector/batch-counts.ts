import type { Queryable } from '../../db/types.ts';
import type { TransactionSettings } from '../../db/transaction-settings.ts';

/**
 * The counters of a connector batch (activity, days, states, terminals, storage) written once for
 * the whole batch (migration 019): the batch's transaction skips the insert triggers
 * (BATCH_COUNTS), and once its last row is written one call counts every row it inserted, as the
 * triggers would have. A batch is several statements; the triggers ran after each of them.
 */
export const BATCH_COUNTS: TransactionSettings = { 'synchro.batch_counts': 'on' };

/** The function of migration 019 that counts the inserted rows of its table. */
export type BatchCounter = 'import_records_added' | 'transaction_logs_added';

/** Counts the rows `ids` (all of the installation's, all inserted in this transaction). */
export async function countBatch(
  tx: Queryable,
  counter: BatchCounter,
  installationId: string,
  ids: readonly string[],
): Promise<void> {
  if (ids.length === 0) return;
  await tx.query(`SELECT ${counter}($1, $2::bigint[])`, [installationId, ids], {
    prepare: `connector_${counter}`,
  });
}
