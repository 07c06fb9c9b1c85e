import { valuesList } from '../db/multi-row.ts';
import { exactText, storedText } from '../db/text-column.ts';
import type { Queryable } from '../db/types.ts';
import { CHUNK_CHARS, chunkEnd, readChunks, STATEMENT_CHARS, yieldToOthers } from './blobs.ts';

/**
 * Big configuration texts, written and read a few hundred KB per statement (migration 028,
 * docs/server.md « Partage équitable »). A text longer than INLINE_TEXT_CHARS is written before
 * the transaction of its write, each statement in its own implicit transaction; that transaction
 * then only refers to it (`text_id`) and attaches it. On the embedded database a 22 MB text in
 * one statement held every installation's requests for half a second or more, and grew the
 * database thread's memory by its size for good.
 */

/** Longer texts are written apart: one statement of this many code units is about 10 ms. */
export const INLINE_TEXT_CHARS = STATEMENT_CHARS;

/**
 * A released text stays this long, so that a read under way finishes; a text not attached yet
 * (its write between its prepare and its commit, seconds) too, so that a write that lost its race
 * leaves nothing for longer.
 */
export const UNHELD_LIFETIME_MS = 10 * 60 * 1000;

/** A text read while it was deleted (released, then swept): the reader starts again. */
export class ConfigurationTextGone extends Error {
  constructor(id: string) {
    super(`configuration text ${id} is no longer stored`);
  }
}

export function writtenApartText(text: string): boolean {
  return text.length > INLINE_TEXT_CHARS;
}

/** Writes `text` (detached) for `installationId`; returns its id, to attach in the write's transaction. */
export async function writeConfigurationText(
  db: Queryable,
  installationId: string,
  text: string,
): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO configuration_texts (installation_id, chars, bytes) VALUES ($1, $2, 0) RETURNING id::text AS id`,
    [installationId, text.length],
  );
  const id = (row as { id: string }).id;
  const perStatement = Math.max(1, Math.floor(STATEMENT_CHARS / CHUNK_CHARS));
  let pieces: { seq: number; data: string }[] = [];
  const flush = async () => {
    await db.query(
      `INSERT INTO configuration_text_chunks (text_id, seq, data)
       VALUES ${valuesList(pieces.length, 1, ['$1', '?::int', '?'])}`,
      [id, ...pieces.flatMap((p) => [p.seq, p.data])],
    );
    pieces = [];
    await yieldToOthers();
  };
  for (let start = 0, seq = 0; start < text.length || seq === 0; seq += 1) {
    const end = chunkEnd(text, start);
    pieces.push({ seq, data: text.slice(start, end) });
    start = end;
    if (pieces.length === perStatement) await flush();
  }
  if (pieces.length > 0) await flush();
  await db.query(
    `UPDATE configuration_texts SET bytes = (
       SELECT sum(pg_column_size(data)) FROM configuration_text_chunks WHERE text_id = $1)
     WHERE id = $1`,
    [id],
  );
  return id;
}

/**
 * Marks a text as held by a row, inside the transaction that stores the row, before the row
 * refers to it; ConfigurationTextGone when the sweep took it meanwhile (the write starts again).
 */
export async function attachConfigurationText(tx: Queryable, id: string): Promise<void> {
  const rows = await tx.query('UPDATE configuration_texts SET attached = true WHERE id = $1 RETURNING id', [
    id,
  ]);
  if (rows.length === 0) throw new ConfigurationTextGone(id);
}

/**
 * A whole text, a statement of at most STATEMENT_CHARS at a time; ConfigurationTextGone when it is
 * no longer all there (deleted since the row that referred to it was read).
 */
export async function readConfigurationText(db: Queryable, id: string): Promise<string> {
  const [head] = await db.query<{ chars: number }>('SELECT chars FROM configuration_texts WHERE id = $1', [
    id,
  ]);
  if (!head) throw new ConfigurationTextGone(id);
  const text = await readChunks(
    db,
    `SELECT ${exactText('data', 'data')} FROM configuration_text_chunks
     WHERE text_id = $1 AND seq >= $2 ORDER BY seq LIMIT $3`,
    id,
  );
  if (text.length !== head.chars) throw new ConfigurationTextGone(id);
  return text;
}

/** The stored text of a row that has `text` (inline, selected with exactText) or `textId`. */
export async function textOfRow(
  db: Queryable,
  row: { text: string | null; textId: string | null },
): Promise<string | null> {
  if (row.textId !== null) return readConfigurationText(db, row.textId);
  return storedText(row.text);
}

/** The SQL condition « this row's text is kept » (inline or written apart). */
export const HAS_TEXT = '(text IS NOT NULL OR text_id IS NOT NULL)';

/** The select items of a row's text: `text` (exact) and `"textId"`. */
export const TEXT_COLUMNS = `${exactText('text', 'text')}, text_id::text AS "textId"`;

/**
 * Deletes the texts released, or never attached, more than UNHELD_LIFETIME_MS ago; returns how
 * many.
 */
export async function sweepConfigurationTexts(db: Queryable, now: Date): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `DELETE FROM configuration_texts
     WHERE (NOT attached OR released_at IS NOT NULL) AND coalesce(released_at, created_at) < $1
     RETURNING id`,
    [new Date(now.getTime() - UNHELD_LIFETIME_MS)],
  );
  return rows.length;
}
