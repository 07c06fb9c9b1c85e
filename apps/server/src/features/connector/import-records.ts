import {
  formatZonedIso,
  ZImportRecordsEnvelope,
  type TConnectorBatchAnswer,
  type TImportQueueRecord,
  type TImportResultAnswer,
} from '@synchro/contracts';
import { encodeConnectorText } from '@synchro/config-xml';
import type { AppContext } from '../../context.ts';
import { bySize, valuesList } from '../../db/multi-row.ts';
import { exactText, storedText } from '../../db/text-column.ts';
import type { Queryable } from '../../db/types.ts';
import {
  attachBlobs,
  deleteBlobs,
  LOG_HEAD_CHARS,
  logHead,
  readBlob,
  writeApart,
  type ApartCandidate,
} from '../../domain/blobs.ts';
import {
  enqueueArrivals,
  noArrivals,
  type Arrivals,
  type MailInstallation,
} from '../../domain/mail-rules.ts';
import { AppError } from '../../http/errors.ts';
import { parseJsonBytes } from '../../http/json-body.ts';
import { parseConnectorOr400 } from '../../http/validate.ts';
import { runOnBody } from '../../offload/pool.ts';
import { ingestBatch, type Inserted } from './batch.ts';
import { checkRecordsTask, streamRecordsTask, checkResultTask } from './checked-batches.ts';
import { QUEUE_MAX_ENREG_BYTES } from './limits.ts';
import {
  fileRow,
  prepareRecords,
  type QueueText,
  type RecordFileRow,
  type RecordRow,
} from './record-rows.ts';

/**
 * Import records (docs/connector-api.md): a batch stored all or nothing in one transaction
 * (multi-row statements of RECORDS_PER_STATEMENT), idempotent on `IDInterne` within the
 * installation; the import queue; the result of an import. Short texts are stored decoded
 * (display, search, CSV); `id_interne`, `enreg` and `log` exactly as sent.
 */

/**
 * Records per statement (writeBatch): the next ones are checked while the database writes one.
 * Measured on PostgreSQL (bench/connector): better than 250 once statements are prepared.
 */
export const RECORDS_PER_STATEMENT = 100;

/** A record's values: $1 the installation, $2 the time of receipt, then its own parameters. */
const RECORD_VALUES =
  '$1 ? ? ? ?::timestamptz ?::int ? ?::smallint ? ?::bigint ? ?::bigint ?::boolean ?::jsonb $2 $2'.split(' ');

const insertRecordsStatement = bySize(
  (
    count,
  ) => `INSERT INTO import_records (installation_id, id_interne, type_enreg, ref_doc, date_heure, num_ligne,
    type_element, etat, log, log_blob, enreg, enreg_blob, has_file, sent_texts, received_at, updated_at)
  VALUES ${valuesList(count, 2, RECORD_VALUES)}
  ON CONFLICT (installation_id, id_interne) DO NOTHING
  RETURNING id, id_interne AS "idInterne"`,
  RECORDS_PER_STATEMENT,
);

/** The emails' view of a record (docs/mail.md). */
const recordItem = (r: Pick<RecordRow, 'idInterne' | 'refDoc' | 'typeEnreg' | 'dateHeure'>) => ({
  id: r.idInterne,
  ref: r.refDoc,
  type: r.typeEnreg,
  at: r.dateHeure.toISOString(),
});

/** The records inserted that arrive imported (1) or rejected (-1) join `arrivals` (their emails). */
function noteArrivals(inserted: readonly RecordRow[], arrivals: Arrivals): void {
  for (const r of inserted) {
    if (r.etat === 1) arrivals.imported.push(recordItem(r));
    else if (r.etat === -1) arrivals.rejected.push(recordItem(r));
  }
}

/** One multi-row statement for the records of a chunk, one for their files; the rows inserted. */
async function writeRecords(
  tx: Queryable,
  installationId: string,
  rows: RecordRow[],
  now: Date,
  standard: boolean,
): Promise<Inserted<RecordRow>> {
  const params: unknown[] = [installationId, now];
  for (const r of rows) {
    params.push(
      r.idInterne,
      r.typeEnreg,
      r.refDoc,
      r.dateHeure,
      r.numLigne,
      r.typeElement,
      r.etat,
      r.log,
      r.logBlob,
      r.enreg,
      r.enregBlob,
      r.file !== null,
      r.sentTexts,
    );
  }
  const inserted = await tx.query<{ id: string; idInterne: string }>(
    insertRecordsStatement(rows.length),
    params,
    standard ? { prepare: `connector_insert_records_${rows.length}` } : {},
  );
  const rowOf = new Map(rows.map((r) => [r.idInterne, r]));
  const stored = inserted.map((r) => ({ id: r.id, row: rowOf.get(r.idInterne) as RecordRow }));
  await insertFiles(tx, installationId, stored);
  return { rows: stored.map((s) => s.row), ids: stored.map((s) => s.id) };
}

/** Characters of a record's big texts (its XML, log, file, sent texts) left in its row. */
function charsOf(row: RecordRow): number {
  return (
    (row.enreg?.length ?? 0) + row.log.length + (row.file?.base64?.length ?? 0) + (row.sentTexts?.length ?? 0)
  );
}

/** The values of a record that went apart (domain/blobs.ts). */
function blobsOf(row: RecordRow): string[] {
  return [row.enregBlob, row.logBlob, row.file?.blob ?? null].filter((id): id is string => id !== null);
}

/** The values of checked records that may be written apart, each with how its row then changes. */
function apartCandidates(rows: readonly RecordRow[]): ApartCandidate[] {
  const candidates: ApartCandidate[] = [];
  for (const row of rows) {
    if (row.enreg !== null) {
      const text = row.enreg;
      candidates.push({ text, moved: (id) => ((row.enreg = null), (row.enregBlob = id)) });
    }
    if (row.log.length > LOG_HEAD_CHARS) {
      const text = row.log;
      candidates.push({ text, moved: (id) => ((row.log = logHead(text)), (row.logBlob = id)) });
    }
    const file = row.file;
    if (file?.base64) {
      const text = file.base64;
      candidates.push({ text, moved: (id) => ((file.base64 = null), (file.blob = id)) });
    }
  }
  return candidates;
}

/**
 * POST /api/connector/v1/import-records: all or nothing (ingestBatch); a record already stored,
 * or earlier in the same batch, is left as it is and counted as a duplicate. The new records
 * imported or in error write their emails in the same transaction.
 */
export async function ingestRecords(
  ctx: AppContext,
  installation: MailInstallation,
  body: Uint8Array,
  zone: string,
  now: Date,
): Promise<TConnectorBatchAnswer> {
  const installationId = installation.id;
  const arrivals = noArrivals();
  return ingestBatch(ctx, installation, body, zone, {
    name: 'records',
    chunkSize: RECORDS_PER_STATEMENT,
    idOf: (r) => r.idInterne,
    itemsOf: (bytes) => parseConnectorOr400(ZImportRecordsEnvelope, parseJsonBytes(bytes)).records,
    prepare: (slice, offset, issues) => prepareRecords(slice, zone, offset, issues),
    task: checkRecordsTask,
    streamTask: streamRecordsTask,
    write: async (tx, rows, standard) => {
      const inserted = await writeRecords(tx, installationId, rows, now, standard);
      noteArrivals(inserted.rows, arrivals);
      return inserted;
    },
    counter: 'import_records_added',
    apartCandidates,
    blobsOf,
    charsOf,
    finish: (tx) => enqueueArrivals(tx, installation, ctx.configs, arrivals, now),
  });
}

/** A file's values: its record, name, size, then its content (base64) or its value apart. */
const FILE_VALUES = '?::bigint ? ?::int ?::text ?::bigint'.split(' ');

async function insertFiles(
  tx: Queryable,
  installationId: string,
  stored: readonly { id: string; row: RecordRow }[],
): Promise<void> {
  const withFile = stored.filter((s) => s.row.file !== null);
  if (withFile.length === 0) return;
  const params: unknown[] = [installationId];
  for (const { id, row } of withFile) {
    const file = row.file as RecordFileRow;
    params.push(id, file.name, file.size, file.base64, file.blob);
  }
  await tx.query(
    `INSERT INTO import_record_files (record_id, installation_id, name, size, content, content_blob)
     SELECT record_id, $1, name, size, decode(base64, 'base64'), blob
     FROM (VALUES ${valuesList(withFile.length, 1, FILE_VALUES)}) AS f(record_id, name, size, base64, blob)`,
    params,
  );
}

// -------------------------------------------------------------------------------------------
// The queue

interface QueueRow {
  idInterne: string;
  typeEnreg: string;
  refDoc: string;
  typeElement: string;
  dateHeure: Date;
  numLigne: number;
  enreg: string | null;
  enregBlob: string | null;
  sentTexts: Partial<Record<QueueText, string>> | null;
}

/**
 * GET /api/connector/v1/import-records/queue: the records with Etat 0, oldest first (DateHeure,
 * then arrival), at most `limit` and at most `maxEnregBytes` of `Enreg` (at least one
 * record); each as the connector sent it: its convention for the texts, `DateHeure` with the
 * installation's offset. Only the `Enreg` of the records given is read.
 */
export async function readQueue(
  db: Queryable,
  installationId: string,
  limit: number,
  zone: string,
  maxEnregBytes = QUEUE_MAX_ENREG_BYTES,
): Promise<TImportQueueRecord[]> {
  const rows = await db.query<QueueRow>(
    `WITH queue AS (
       SELECT id, date_heure, bytes, sum(bytes) OVER (ORDER BY date_heure, id) AS running
       FROM (
         SELECT r.id, r.date_heure,
                coalesce(octet_length(r.enreg), (SELECT b.bytes FROM stored_blobs b WHERE b.id = r.enreg_blob)) AS bytes
         FROM import_records r
         WHERE r.installation_id = $1 AND r.etat = 0
         ORDER BY r.date_heure, r.id
         LIMIT $2) q)
     SELECT r.id_interne AS "idInterne", r.type_enreg AS "typeEnreg", r.ref_doc AS "refDoc",
            r.type_element AS "typeElement", r.date_heure AS "dateHeure", r.num_ligne AS "numLigne",
            ${exactText('r.enreg', 'enreg')}, r.enreg_blob AS "enregBlob", r.sent_texts AS "sentTexts"
     FROM queue q JOIN import_records r ON r.id = q.id
     WHERE q.running <= $3 OR q.running = q.bytes
     ORDER BY q.date_heure, q.id`,
    [installationId, limit, maxEnregBytes],
  );
  const records: TImportQueueRecord[] = [];
  for (const r of rows) {
    records.push({
      IDInterne: r.idInterne,
      TypeEnreg: r.sentTexts?.TypeEnreg ?? encodeConnectorText(r.typeEnreg),
      RefDoc: r.sentTexts?.RefDoc ?? encodeConnectorText(r.refDoc),
      DateHeure: formatZonedIso(r.dateHeure, zone),
      NumLigne: r.numLigne,
      TypeElement: r.sentTexts?.TypeElement ?? encodeConnectorText(r.typeElement),
      Enreg: r.enregBlob === null ? storedText(r.enreg ?? '.') : await readBlob(db, r.enregBlob),
    });
  }
  return records;
}

// -------------------------------------------------------------------------------------------
// The result of an import

export function unknownRecord(idInterne: string): AppError {
  return new AppError(
    404,
    `Aucun enregistrement d’import « ${idInterne} » pour cette installation.`,
    'not-found',
  );
}

/**
 * POST /api/connector/v1/import-records/{IDInterne}/result: Etat 1 or -1, the log when given
 * (else the stored one stays), the produced file when given (it replaces the stored one); one
 * transaction, after the big values are written apart on the embedded database. 404 for an id
 * the installation does not have.
 */
export async function applyResult(
  ctx: AppContext,
  installation: MailInstallation,
  idInterne: string,
  body: Uint8Array,
  now: Date,
): Promise<TImportResultAnswer> {
  const { db } = ctx;
  const installationId = installation.id;
  const result = await runOnBody(ctx.offload.for(installationId), checkResultTask, { body });
  const file = fileRow(result.Fichier);
  let log = result.Log ?? null;
  let logBlob: string | null = null;
  const candidates: ApartCandidate[] = [];
  if (log !== null && log.length > LOG_HEAD_CHARS) {
    const text = log;
    candidates.push({ text, moved: (id) => ((log = logHead(text)), (logBlob = id)) });
  }
  if (file?.base64) {
    const text = file.base64;
    candidates.push({ text, moved: (id) => ((file.base64 = null), (file.blob = id)) });
  }
  const apart = await writeApart(db, installationId, ctx.apart, candidates);
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.query<{
        id: string;
        previous: number;
        refDoc: string;
        typeEnreg: string;
        dateHeure: Date;
      }>(
        `WITH old AS (SELECT id, etat FROM import_records WHERE installation_id = $1 AND id_interne = $2 FOR UPDATE)
         UPDATE import_records r SET etat = $3, log = coalesce($4, r.log),
           log_blob = CASE WHEN $4::text IS NULL THEN r.log_blob ELSE $5::bigint END,
           has_file = r.has_file OR $6, updated_at = $7
         FROM old WHERE r.id = old.id
         RETURNING r.id, old.etat AS previous, r.ref_doc AS "refDoc", r.type_enreg AS "typeEnreg",
           r.date_heure AS "dateHeure"`,
        [installationId, idInterne, result.Etat, log, logBlob, file !== null, now],
      );
      if (!row) throw unknownRecord(idInterne);
      if (row.previous !== result.Etat) {
        const arrivals = noArrivals();
        const item = recordItem({ ...row, idInterne });
        (result.Etat === 1 ? arrivals.imported : arrivals.rejected).push(item);
        await enqueueArrivals(tx, installation, ctx.configs, arrivals, now);
      }
      if (file) {
        await tx.query(
          `INSERT INTO import_record_files (record_id, installation_id, name, size, content, content_blob)
           VALUES ($1, $2, $3, $4, decode($5, 'base64'), $6)
           ON CONFLICT (record_id) DO UPDATE SET name = EXCLUDED.name, size = EXCLUDED.size,
             content = EXCLUDED.content, content_blob = EXCLUDED.content_blob`,
          [row.id, installationId, file.name, file.size, file.base64, file.blob],
        );
      }
      await attachBlobs(tx, apart);
      return { IDInterne: idInterne, Etat: result.Etat };
    });
  } catch (err) {
    await deleteBlobs(db, apart).catch(() => {});
    throw err;
  }
}
