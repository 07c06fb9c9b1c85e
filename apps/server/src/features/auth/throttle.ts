import type { Queryable } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { formatIpAddress, parseIpAddress } from '../../network/automate-address.ts';

/**
 * Sign-in throttling (docs/security.md, Sign-in). Every attempt is counted BEFORE its client id is
 * checked, by one upsert that returns the counts including it. An untrusted client (no valid
 * device cookie of that sync id) is counted under three keys:
 *
 * - `pair:` sync id + address: hard lock after PAIR_LIMIT attempts in the window;
 * - `addr:` address, any sync id: hard lock after ADDRESS_LIMIT (a guesser trying many ids);
 * - `sync:` sync id, any address: never locked, slowed down: SYNC_FREE attempts, then one more
 *   every SYNC_SPACING_MS.
 *
 * A client with a valid device cookie (security/device-cookie.ts: it signed in to that sync id
 * before) is counted apart, under `dev:` + its cookie's nonce alone, and locked after
 * DEVICE_LIMIT attempts: an attacker rotating addresses keeps the sync id's untrusted clients
 * slowed, never the owner's known browser (OWASP's device cookies).
 *
 * An attempt that is refused (429) or that succeeds is taken back off: the counts are failures.
 */

export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const PAIR_LIMIT = 5;
export const ADDRESS_LIMIT = 10;
export const SYNC_FREE = 5;
export const SYNC_SPACING_MS = 30 * 1000;
export const DEVICE_LIMIT = 5;
const FORGET_AFTER_MS = 24 * 3600 * 1000;

/**
 * The address a client is counted under: an IPv4 address as it is (`::ffff:a.b.c.d` is that IPv4
 * address), an IPv6 address by its /64 (a host picks any address of its /64 at will).
 */
export function addressKey(address: string): string {
  const parsed = parseIpAddress(address);
  if (!parsed) return address;
  if (parsed.version === 4) return formatIpAddress(parsed);
  const prefix = parsed.bytes.map((b, i) => (i < 8 ? b : 0));
  return `${formatIpAddress({ version: 6, bytes: prefix })}/64`;
}

/**
 * The keys an attempt on `syncId` from `address` is counted under, in the order their rows are
 * locked: the device cookie's alone when the client has one (its nonce), else the three of an
 * untrusted client.
 */
export function throttleKeys(syncId: string, address: string, deviceNonce: string | null = null): string[] {
  if (deviceNonce) return [`dev:${deviceNonce}`];
  const addr = addressKey(address);
  return [`addr:${addr}`, `pair:${syncId}@${addr}`, `sync:${syncId}`];
}

/** The counts of one attempt (its own included), to be taken back off with `uncount`. */
export interface CountedAttempt {
  counts: { key: string; windowStart: Date; attempts: number }[];
}

/** When a key lets an attempt through again, or 0 while it does now. */
function retryTime(count: CountedAttempt['counts'][number], now: Date): number {
  const start = count.windowStart.getTime();
  const windowEnd = start + FAILURE_WINDOW_MS;
  const lockedPast = (limit: number) => (count.attempts > limit ? windowEnd : 0);
  if (count.key.startsWith('pair:')) return lockedPast(PAIR_LIMIT);
  if (count.key.startsWith('addr:')) return lockedPast(ADDRESS_LIMIT);
  if (count.key.startsWith('dev:')) return lockedPast(DEVICE_LIMIT);
  // The sync id: the n-th attempt beyond the free ones waits until n spacings after the start.
  const allowedAt = start + Math.max(0, count.attempts - SYNC_FREE) * SYNC_SPACING_MS;
  return allowedAt > now.getTime() ? Math.min(allowedAt, windowEnd) : 0;
}

function tooMany(seconds: number): AppError {
  const minutes = Math.ceil(seconds / 60);
  const wait =
    seconds < 60
      ? `${seconds} seconde${seconds > 1 ? 's' : ''}`
      : `${minutes} minute${minutes > 1 ? 's' : ''}`;
  return new AppError(
    429,
    `Trop de tentatives de connexion échouées. Réessayez dans ${wait}.`,
    'TOO_MANY_ATTEMPTS',
    { 'Retry-After': String(seconds) },
  );
}

/**
 * Counts an attempt under its keys (one statement: atomic across requests and processes; keys
 * in a fixed order so that two attempts never wait on each other's rows crosswise), then
 * refuses it with 429 and a `Retry-After` when a key says so (the count taken back off). A window
 * that started after `now` (another process's clock, a clock set back) starts again too.
 */
export async function countAttempt(db: Queryable, keys: string[], now: Date): Promise<CountedAttempt> {
  const rows = await db.query<{ key: string; window_start: Date; attempts: number }>(
    `INSERT INTO login_throttle AS t (key, window_start, attempts)
     SELECT k, $2::timestamptz, 1 FROM unnest($1::text[]) AS k
     ON CONFLICT (key) DO UPDATE SET
       window_start = CASE WHEN t.window_start <= $3 OR t.window_start > $2 THEN $2 ELSE t.window_start END,
       attempts = CASE WHEN t.window_start <= $3 OR t.window_start > $2 THEN 1 ELSE t.attempts + 1 END
     RETURNING key, window_start, attempts`,
    [[...keys].sort(), now, new Date(now.getTime() - FAILURE_WINDOW_MS)],
  );
  const counted: CountedAttempt = {
    counts: rows.map((r) => ({ key: r.key, windowStart: new Date(r.window_start), attempts: r.attempts })),
  };
  const retryAt = Math.max(...counted.counts.map((c) => retryTime(c, now)));
  if (retryAt === 0) return counted;
  await uncount(db, counted);
  throw tooMany(Math.max(1, Math.ceil((retryAt - now.getTime()) / 1000)));
}

/**
 * Takes an attempt back off its counts (unless their window has started again since). The rows
 * are locked in key order, as countAttempt takes them, so the two never deadlock.
 */
export async function uncount(db: Queryable, counted: CountedAttempt): Promise<void> {
  await db.query(
    `UPDATE login_throttle AS t SET attempts = t.attempts - 1
     FROM (
       SELECT l.key FROM login_throttle AS l
       JOIN unnest($1::text[], $2::text[]) AS u(key, window_start)
         ON l.key = u.key AND l.window_start = u.window_start::timestamptz
       WHERE l.attempts > 0
       ORDER BY l.key
       FOR UPDATE OF l
     ) AS locked
     WHERE t.key = locked.key`,
    [counted.counts.map((c) => c.key), counted.counts.map((c) => c.windowStart.toISOString())],
  );
}

/** Housekeeping after a failure: counters of windows older than a day are useless. */
export async function forgetOldCounters(db: Queryable, now: Date): Promise<void> {
  await db.query('DELETE FROM login_throttle WHERE window_start < $1', [
    new Date(now.getTime() - FORGET_AFTER_MS),
  ]);
}
