import { AppError } from '../../http/errors.ts';
import { RATE_WINDOW_MS } from './limits.ts';

/**
 * Fixed-window request counters per installation and route group, in the database
 * (`connector_rate_limits`) so that every server process counts the same requests: one upsert per
 * request, atomic under concurrency, made in the token's own query (auth.ts, RATE_HIT_SQL). A
 * request over the limit gets 429 with `Retry-After` (the end of the window) and does nothing
 * else; it still counts.
 */

/** The start of the window `now` falls in. */
export function rateWindowStart(now: Date): Date {
  return new Date(Math.floor(now.getTime() / RATE_WINDOW_MS) * RATE_WINDOW_MS);
}

/**
 * One hit for each row of `rows` (a query giving installation, bucket, window start); returns the
 * window's hits. Used as a CTE of the token's query (auth.ts).
 */
export function rateHitSql(rows: string): string {
  return `INSERT INTO connector_rate_limits AS r (installation_id, bucket, window_start, hits)
     ${rows}
     ON CONFLICT (installation_id, bucket) DO UPDATE SET
       hits = CASE WHEN r.window_start >= EXCLUDED.window_start THEN r.hits + 1 ELSE 1 END,
       window_start = GREATEST(r.window_start, EXCLUDED.window_start)
     RETURNING hits`;
}

/** 429 when `hits` (this request's included) pass `limit` in the window starting at `windowStart`. */
export function refuseOverLimit(hits: number, limit: number, windowStart: Date, now: Date): void {
  if (hits <= limit) return;
  const seconds = Math.max(1, Math.ceil((windowStart.getTime() + RATE_WINDOW_MS - now.getTime()) / 1000));
  throw new AppError(
    429,
    `Trop de requêtes du connecteur sur cette route : au plus ${limit} par minute pour une installation. ` +
      `Réessayez dans ${seconds} s.`,
    'too-many-requests',
    { 'Retry-After': String(seconds) },
  );
}
