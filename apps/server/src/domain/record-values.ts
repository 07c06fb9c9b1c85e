import { exactText, storedText } from '../db/text-column.ts';
import type { Queryable } from '../db/types.ts';
import { readBlob } from './blobs.ts';

/**
 * The big values of an import record, wherever they are stored: in its row, or written apart
 * (domain/blobs.ts). Read exactly as stored: a record may start with a byte order mark.
 */

export type RecordColumn = 'enreg' | 'log';

/** The record's XML or log, or null when the installation has no record of that id. */
export async function readRecordValue(
  db: Queryable,
  installationId: string,
  idInterne: string,
  column: RecordColumn,
): Promise<string | null> {
  const [row] = await db.query<{ text: string | null; blob: string | null }>(
    `SELECT ${exactText(column, 'text')}, ${column}_blob AS blob
     FROM import_records WHERE installation_id = $1 AND id_interne = $2`,
    [installationId, idInterne],
  );
  if (!row) return null;
  return row.blob === null ? storedText(row.text ?? '.') : readBlob(db, row.blob);
}

/** A record's file, or null when it has none: its name and bytes. */
export async function readRecordFile(
  db: Queryable,
  installationId: string,
  idInterne: string,
): Promise<{ name: string; content: Buffer } | null> {
  // As base64 text: the embedded database writes text parameters and fields ten times faster than bytea.
  const [row] = await db.query<{ name: string; base64: string | null; blob: string | null }>(
    `SELECT f.name, encode(f.content, 'base64') AS base64, f.content_blob AS blob
     FROM import_records r JOIN import_record_files f ON f.record_id = r.id
     WHERE r.installation_id = $1 AND r.id_interne = $2`,
    [installationId, idInterne],
  );
  if (!row) return null;
  const base64 = row.blob === null ? (row.base64 ?? '') : await readBlob(db, row.blob);
  return { name: row.name, content: Buffer.from(base64, 'base64') };
}
