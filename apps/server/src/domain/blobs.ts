import { HISTORY_LIMITS } from '@synchro/contracts';
import { valuesList } from '../db/multi-row.ts';
import { exactText, storedText } from '../db/text-column.ts';
import type { Db, Queryable } from '../db/types.ts';

/**
 * Big values written in pieces (migration 006, docs/server.md « Partage équitable »). The
 * embedded database runs in the server's own thread, one statement at a time: a 10 MB record
 * written in one statement would hold every other installation's requests for half a second, and
 * a batch of 80 MB written in one transaction for seconds. Such values are written first, a few
 * hundred KB per statement, outside any transaction; the short transaction that stores their row
 * then refers to them and marks them attached. Texts are stored as they are (a file as base64).
 */

/** UTF-16 code units of one chunk row. */
export const CHUNK_CHARS = 256 * 1024;
/** Code units written or read by one statement: about 10 ms of the embedded database. */
export const STATEMENT_CHARS = 1024 * 1024;
/** A value never attached (its batch refused, or cut by a stop) is deleted after this long. */
export const DETACHED_LIFETIME_MS = 60 * 60 * 1000;

/** Where a chunk ends: `CHUNK_CHARS` further, never between the two halves of a surrogate pair. */
export function chunkEnd(text: string, start: number): number {
  let end = Math.min(text.length, start + CHUNK_CHARS);
  const last = text.charCodeAt(end - 1);
  if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return end;
}

/** A chunk's values: $1 the installation, then its own parameters (each its own: no array to escape). */
const CHUNK_VALUES = '?::bigint ?::int $1 ?'.split(' ');

/** Lets the other requests' statements and callbacks through between two chunk statements. */
export const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Writes `values` (detached) for `installationId`, a statement of at most STATEMENT_CHARS at a
 * time, each in its own implicit transaction; returns their ids, in order.
 */
export async function writeBlobs(
  db: Db,
  installationId: string,
  values: readonly string[],
): Promise<string[]> {
  if (values.length === 0) return [];
  const ids = (
    await db.query<{ id: string }>(
      `SELECT nextval(pg_get_serial_sequence('stored_blobs', 'id'))::text AS id FROM generate_series(1, $1)`,
      [values.length],
    )
  ).map((r) => r.id);
  await db.query(
    `INSERT INTO stored_blobs (id, installation_id, bytes)
     SELECT id, $1, bytes FROM unnest($2::bigint[], $3::bigint[]) AS v(id, bytes)`,
    [installationId, ids, values.map((v) => Buffer.byteLength(v, 'utf8'))],
  );
  let rows: { blob: string; seq: number; data: string }[] = [];
  let chars = 0;
  const flush = async () => {
    if (rows.length === 0) return;
    await db.query(
      `INSERT INTO stored_blob_chunks (blob_id, seq, installation_id, data)
       VALUES ${valuesList(rows.length, 1, CHUNK_VALUES)}`,
      [installationId, ...rows.flatMap((r) => [r.blob, r.seq, r.data])],
    );
    rows = [];
    chars = 0;
    await yieldToOthers();
  };
  for (const [k, value] of values.entries()) {
    const blob = ids[k] as string;
    let seq = 0;
    for (let start = 0; start < value.length || seq === 0; seq += 1) {
      const end = chunkEnd(value, start);
      rows.push({ blob, seq, data: value.slice(start, end) });
      chars += end - start;
      start = end;
      if (chars >= STATEMENT_CHARS) await flush();
    }
  }
  await flush();
  return ids;
}

/** Marks values as held by a row (inside the transaction that stores the row). */
export async function attachBlobs(tx: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.query('UPDATE stored_blobs SET attached = true WHERE id = ANY($1::bigint[])', [ids]);
}

/** Deletes values that will not be attached (a refused batch). */
export async function deleteBlobs(db: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query('DELETE FROM stored_blobs WHERE id = ANY($1::bigint[]) AND NOT attached', [ids]);
}

/**
 * A value stored in chunks, read a statement of at most STATEMENT_CHARS at a time: `chunksSql`
 * selects `data` (with exactText) of `$1`'s chunks from seq `$2` on, in order, `$3` of them;
 * `maxChars` stops once that many characters are read (a preview), possibly a few more.
 */
export async function readChunks(
  db: Queryable,
  chunksSql: string,
  id: string,
  maxChars = Infinity,
): Promise<string> {
  const parts: string[] = [];
  let read = 0;
  const perStatement = Math.max(1, Math.floor(STATEMENT_CHARS / CHUNK_CHARS));
  for (let seq = 0; read < maxChars; seq += perStatement) {
    const rows = await db.query<{ data: string }>(chunksSql, [id, seq, perStatement]);
    for (const row of rows) {
      const data = storedText(row.data);
      parts.push(data);
      read += data.length;
    }
    if (rows.length < perStatement) break;
  }
  return parts.join('');
}

/** A whole value (readChunks), or its first `maxChars` characters and possibly a few more. */
export async function readBlob(db: Queryable, id: string, maxChars = Infinity): Promise<string> {
  return readChunks(
    db,
    `SELECT ${exactText('data', 'data')} FROM stored_blob_chunks
     WHERE blob_id = $1 AND seq >= $2 ORDER BY seq LIMIT $3`,
    id,
    maxChars,
  );
}

/** Deletes the values that were never attached and are older than DETACHED_LIFETIME_MS. */
export async function sweepDetachedBlobs(db: Queryable, now: Date): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `DELETE FROM stored_blobs WHERE NOT attached AND created_at < $1 RETURNING id`,
    [new Date(now.getTime() - DETACHED_LIFETIME_MS)],
  );
  return rows.length;
}

/**
 * Which values leave a batch's transaction (written apart first): on the embedded database
 * (`enabled`), every value over `valueChars`, and the others once the batch's total kept inline
 * passes `transactionChars`, so that the transaction stays short whatever the batch weighs. On
 * PostgreSQL (another process, several connections) a long transaction holds nobody else:
 * nothing is written apart there.
 */
export interface ApartPolicy {
  enabled: boolean;
  /** Characters a batch's transaction may carry in all. */
  transactionChars: number;
  /** A single value longer than this is always written apart. */
  valueChars: number;
}

export function apartPolicyFor(kind: Db['kind']): ApartPolicy {
  return { enabled: kind === 'pglite', transactionChars: 1024 * 1024, valueChars: 256 * 1024 };
}

/** For each value length, in order: true when that value is written apart. */
export function writtenApart(policy: ApartPolicy, lengths: readonly number[]): boolean[] {
  let inline = 0;
  return lengths.map((length) => {
    if (!policy.enabled) return false;
    if (length > policy.valueChars || inline + length > policy.transactionChars) return true;
    inline += length;
    return false;
  });
}

/**
 * Characters of a log the lists read (its preview, once decoded, is shorter: HISTORY_LIMITS). A
 * log written apart keeps this many and one more in its row, so that the lists see it is cut.
 */
export const LOG_HEAD_CHARS = 4 * HISTORY_LIMITS.logPreviewChars;

export function logHead(log: string): string {
  let end = Math.min(log.length, LOG_HEAD_CHARS + 1);
  const last = log.charCodeAt(end - 1);
  if (end < log.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return log.slice(0, end);
}

/** A value that may be written apart, and what to do with its row once it is. */
export interface ApartCandidate {
  text: string;
  /** Called with the value's id when it is written apart. */
  moved: (blobId: string) => void;
}

/**
 * Writes apart the candidates the policy chooses (writtenApart), in order, and tells each its id;
 * returns every id written (to attach, or to delete if the batch is refused).
 */
export async function writeApart(
  db: Db,
  installationId: string,
  policy: ApartPolicy,
  candidates: readonly ApartCandidate[],
): Promise<string[]> {
  const apart = writtenApart(
    policy,
    candidates.map((c) => c.text.length),
  );
  const chosen = candidates.filter((_, k) => apart[k]);
  const ids = await writeBlobs(
    db,
    installationId,
    chosen.map((c) => c.text),
  );
  chosen.forEach((c, k) => c.moved(ids[k] as string));
  return ids;
}

/**
 * Every 10 minutes (and at once), the values past their lifetime are deleted: by `sweeps`, the
 * detached values' sweep and the others given (configuration-texts.ts).
 */
export function startDetachedBlobSweep(
  db: Db,
  now: () => Date,
  onError: (err: unknown) => void,
  sweeps: readonly ((db: Queryable, now: Date) => Promise<number>)[] = [sweepDetachedBlobs],
): { stop: () => Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    const at = now();
    running = Promise.all(sweeps.map((one) => one(db, at).catch(onError)));
  };
  sweep();
  const timer = setInterval(sweep, 10 * 60 * 1000);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
