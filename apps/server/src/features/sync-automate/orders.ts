import type { TSyncOrderOutcome, TSyncType } from '@synchro/contracts';
import type { Queryable } from '../../db/types.ts';

/**
 * The `sync_orders` table (migration 002): one row per order the console set out to send. Its
 * partial unique index (one unfinished row per installation) is the in-flight lock shared by
 * every server process: an order is claimed by inserting its row, so a second one meanwhile
 * inserts nothing and leaves no GET.
 */

/** `abandoned`: left unfinished by a process that stopped (closed by the next order). */
export type StoredOutcome = TSyncOrderOutcome | 'abandoned' | 'error';

/**
 * Closes the installation's unfinished orders requested before `before`: a process that crashed
 * in the middle of one never finished it, and it would block every later order.
 */
export async function closeAbandonedOrders(
  db: Queryable,
  installationId: string,
  before: Date,
  now: Date,
): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `UPDATE sync_orders SET finished_at = $3, outcome = 'abandoned'
     WHERE installation_id = $1 AND finished_at IS NULL AND requested_at < $2
     RETURNING id`,
    [installationId, before, now],
  );
  return rows.length;
}

/** Inserts the order as the installation's one unfinished order; false when another one is. */
export async function claimOrder(
  db: Queryable,
  order: { id: string; installationId: string; type: TSyncType; address: string; now: Date },
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `INSERT INTO sync_orders (id, installation_id, type, requested_at, address)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (installation_id) WHERE finished_at IS NULL DO NOTHING
     RETURNING id`,
    [order.id, order.installationId, order.type, order.now, order.address],
  );
  return rows.length === 1;
}

/**
 * Orders counted by the rate limit since `since`: every claimed order but those the limit itself
 * stopped, with the oldest one's time (when the window frees a place).
 */
export async function countRecentOrders(
  db: Queryable,
  installationId: string,
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  const [row] = await db.query<{ count: number; oldest: Date | null }>(
    `SELECT count(*)::int AS count, min(requested_at) AS oldest FROM sync_orders
     WHERE installation_id = $1 AND requested_at >= $2 AND outcome IS DISTINCT FROM 'rate-limited'`,
    [installationId, since],
  );
  return { count: row?.count ?? 0, oldest: row?.oldest ?? null };
}

export async function finishOrder(
  db: Queryable,
  id: string,
  outcome: StoredOutcome,
  retSync: number,
  now: Date,
): Promise<void> {
  await db.query(
    `UPDATE sync_orders SET finished_at = $2, outcome = $3, ret_sync = $4 WHERE id = $1 AND finished_at IS NULL`,
    [id, now, outcome, retSync],
  );
}
