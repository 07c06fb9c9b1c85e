import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { HISTORY_MESSAGES } from '@synchro/contracts';
import { AppError } from '../http/errors.ts';

/**
 * Keyset cursors of the history lists (docs/history.md, Paging). A cursor names the page it leads
 * to, the side it is read from (`after` the last row of the page before, `before` the first row of
 * the page after) and that row's sort key (time to the microsecond, id). It is signed with a key
 * derived from the session secret and bound to the installation, the list and its filters: a
 * tampered, foreign or stale cursor is a French 400, never a wrong page or a 500.
 */

export interface CursorPosition {
  page: number;
  side: 'after' | 'before';
  /** Sort time, UTC, to the microsecond: `2025-11-14T08:12:00.123456Z`. */
  time: string;
  /** Row id (bigint as text). */
  id: string;
}

const TIME_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const ROW_ID = /^[1-9]\d{0,18}$/;
const SIGNATURE_BYTES = 16;

function cursorKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('history-cursor/v1').digest();
}

/** What a cursor is bound to: the installation, the list and the normalised filters. */
export function cursorScope(installationId: string, list: string, filters: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([installationId, list, filters]))
    .digest('base64url')
    .slice(0, 22);
}

function sign(secret: string, body: string): Buffer {
  return createHmac('sha256', cursorKey(secret)).update(body).digest().subarray(0, SIGNATURE_BYTES);
}

export function encodeCursor(secret: string, scope: string, position: CursorPosition): string {
  const body = Buffer.from(
    JSON.stringify([scope, position.page, position.side === 'after' ? 'a' : 'b', position.time, position.id]),
  ).toString('base64url');
  return `${body}.${sign(secret, body).toString('base64url')}`;
}

const invalid = () => new AppError(400, HISTORY_MESSAGES.cursorInvalid, 'INVALID_CURSOR');
const stale = () => new AppError(400, HISTORY_MESSAGES.cursorStale, 'STALE_CURSOR');

/** The position of a cursor given with `page`, or a French 400. */
export function decodeCursor(secret: string, scope: string, page: number, cursor: string): CursorPosition {
  const [body, signature, extra] = cursor.split('.');
  if (!body || !signature || extra !== undefined) throw invalid();
  const expected = sign(secret, body);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parts) || parts.length !== 5) throw invalid();
  const [boundTo, cursorPage, side, time, id] = parts as unknown[];
  if (
    typeof boundTo !== 'string' ||
    typeof cursorPage !== 'number' ||
    !Number.isSafeInteger(cursorPage) ||
    cursorPage < 1 ||
    (side !== 'a' && side !== 'b') ||
    typeof time !== 'string' ||
    !TIME_KEY.test(time) ||
    typeof id !== 'string' ||
    !ROW_ID.test(id)
  )
    throw invalid();
  if (boundTo !== scope || cursorPage !== page) throw stale();
  return { page: cursorPage, side: side === 'a' ? 'after' : 'before', time, id };
}
