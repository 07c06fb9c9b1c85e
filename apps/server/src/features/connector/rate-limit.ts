import type { Queryable } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { RATE_WINDOW_MS, type ConnectorBucket } from './limits.ts';

/**
 * Fixed-window request counters per installation and route group, in the database
 * (`connector_rate_limits`) so that every server process counts the same requests: one upsert per
 * request, atomic under concurrency. A request over the limit gets 429 with `Retry-After` (the
 * end of the window) and does nothing else; it still counts.
 */
export async function enforceRateLimit(
  db: Queryable,
  installationId: string,
  bucket: ConnectorBucket,
  limit: number,
  now: Date,
): Promise<void> {
  const windowStart = Math.floor(now.getTime() / RATE_WINDOW_MS) * RATE_WINDOW_MS;
  const [row] = await db.query<{ hits: number }>(
    `INSERT INTO connector_rate_limits AS r (installation_id, bucket, window_start, hits)
     VALUES ($1, $2, $3, 1)
     ON CONFLICT (installation_id, bucket) DO UPDATE SET
       hits = CASE WHEN r.window_start >= EXCLUDED.window_start THEN r.hits + 1 ELSE 1 END,
       window_start = GREATEST(r.window_start, EXCLUDED.window_start)
     RETURNING hits`,
    [installationId, bucket, new Date(windowStart)],
    { prepare: 'connector_rate_limit' },
  );
  if ((row?.hits ?? 0) <= limit) return;
  const seconds = Math.max(1, Math.ceil((windowStart + RATE_WINDOW_MS - now.getTime()) / 1000));
  throw new AppError(
    429,
    `Trop de requêtes du connecteur sur cette route : au plus ${limit} par minute pour une installation. ` +
      `Réessayez dans ${seconds} s.`,
    'too-many-requests',
    { 'Retry-After': String(seconds) },
  );
}
