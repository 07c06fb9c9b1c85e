import type { Queryable } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';

export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;

/** Throttling keys of one attempt: the sync id tried and the address it came from. */
export function throttleKeys(syncId: string, address: string): string[] {
  return [`sync:${syncId}`, `addr:${address}`];
}

/** Refuses (429) while any key has MAX_FAILURES failures within the window. */
export async function assertNotThrottled(db: Queryable, keys: readonly string[], now: Date): Promise<void> {
  const since = new Date(now.getTime() - FAILURE_WINDOW_MS);
  const rows = await db.query<{ key: string; failures: number; oldest: Date }>(
    `SELECT key, count(*)::int AS failures, min(attempted_at) AS oldest
     FROM (
       SELECT key, attempted_at,
              row_number() OVER (PARTITION BY key ORDER BY attempted_at DESC) AS recent_rank
       FROM login_attempts WHERE key = ANY($1) AND attempted_at > $2
     ) recent
     WHERE recent_rank <= $3
     GROUP BY key`,
    [keys, since, MAX_FAILURES],
  );
  // When blocked, the oldest of the last MAX_FAILURES failures leaving the window frees a try.
  const retryAt = rows
    .filter((r) => r.failures >= MAX_FAILURES)
    .map((r) => r.oldest.getTime() + FAILURE_WINDOW_MS)
    .reduce((latest, t) => Math.max(latest, t), 0);
  if (retryAt === 0) return;
  const seconds = Math.max(1, Math.ceil((retryAt - now.getTime()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  throw new AppError(
    429,
    `Trop de tentatives de connexion échouées. Réessayez dans ${minutes} minute${minutes > 1 ? 's' : ''}.`,
    'TOO_MANY_ATTEMPTS',
    { 'Retry-After': String(seconds) },
  );
}

export async function recordFailure(db: Queryable, keys: readonly string[], now: Date): Promise<void> {
  for (const key of keys) {
    await db.query('INSERT INTO login_attempts (key, attempted_at) VALUES ($1, $2)', [key, now]);
  }
  // Housekeeping: failures older than a day are useless.
  await db.query('DELETE FROM login_attempts WHERE attempted_at < $1', [
    new Date(now.getTime() - 24 * 3600 * 1000),
  ]);
}
