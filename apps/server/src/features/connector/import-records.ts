import {
  formatZonedIso,
  ZImportRecord,
  type TConnectorBatchAnswer,
  type TConnectorFile,
  type TImportQueueRecord,
  type TImportRecord,
  type TImportResult,
  type TImportResultAnswer,
  type TPayloadIssue,
} from '@synchro/contracts';
import { ConfigXmlError, encodeConnectorText, parseRecord } from '@synchro/config-xml';
import { exactText, storedText } from '../../db/text-column.ts';
import { valuesList } from '../../db/multi-row.ts';
import type { Db, Queryable } from '../../db/types.ts';
import type { ConfigCache } from '../../domain/config-cache.ts';
import {
  enqueueArrivals,
  noArrivals,
  type Arrivals,
  type MailInstallation,
} from '../../domain/mail-rules.ts';
import { AppError } from '../../http/errors.ts';
import { checkedRows, shownText, utcInstant, writeBatch } from './batch.ts';
import { QUEUE_MAX_ENREG_BYTES } from './limits.ts';

/**
 * Import records (docs/connector-api.md): a batch stored all or nothing in one transaction
 * (multi-row statements of RECORDS_PER_STATEMENT), idempotent on `IDInterne` within the
 * installation; the import queue; the result of an import. Short texts are stored decoded
 * (display, search, CSV); `id_interne`, `enreg` and `log` exactly as sent.
 */

/** The short texts the queue gives back, by their contract name. */
const QUEUE_TEXTS = ['TypeEnreg', 'RefDoc', 'TypeElement'] as const;
type QueueText = (typeof QUEUE_TEXTS)[number];

interface RecordRow {
  idInterne: string;
  typeEnreg: string;
  refDoc: string;
  typeElement: string;
  dateHeure: Date;
  numLigne: number;
  etat: number;
  log: string;
  enreg: string;
  /** JSON of the sent short texts that encoding the decoded text would not give back, or null. */
  sentTexts: string | null;
  file: StoredFile | null;
}

interface StoredFile {
  name: string;
  content: Buffer;
}

function storedFile(file: TConnectorFile | undefined): StoredFile | null {
  if (!file) return null;
  return { name: shownText(file.Nom), content: Buffer.from(file.Contenu, 'base64') };
}

/** The sent texts that `encodeConnectorText(decoded)` would not give back unchanged. */
function sentTextsOf(record: TImportRecord, shown: Record<QueueText, string>): string | null {
  let kept: Partial<Record<QueueText, string>> | null = null;
  for (const name of QUEUE_TEXTS) {
    if (encodeConnectorText(shown[name]) !== record[name]) (kept ??= {})[name] = record[name];
  }
  return kept ? JSON.stringify(kept) : null;
}

/**
 * Records per statement (writeBatch): the next ones are checked while the database writes one.
 * Measured on PostgreSQL (bench/connector): better than 250 once statements are prepared.
 */
export const RECORDS_PER_STATEMENT = 100;

/**
 * The rows of a chunk of records: each record checked with its schema (ZImportRecord), then its
 * `Enreg` through the engine's safe record check and its time in the zone; faults named with
 * their index in the batch, and the faulty record left out.
 */
function prepareRecords(
  records: readonly unknown[],
  zone: string,
  offset: number,
  issues: TPayloadIssue[],
): RecordRow[] {
  return checkedRows(ZImportRecord, records, 'records', offset, issues, (r, path) => {
    try {
      parseRecord(r.Enreg);
    } catch (err) {
      if (!(err instanceof ConfigXmlError)) throw err;
      issues.push({ path: `${path}.Enreg`, message: err.message });
    }
    const shown = {
      TypeEnreg: shownText(r.TypeEnreg),
      RefDoc: shownText(r.RefDoc),
      TypeElement: shownText(r.TypeElement),
    };
    return {
      idInterne: r.IDInterne,
      typeEnreg: shown.TypeEnreg,
      refDoc: shown.RefDoc,
      typeElement: shown.TypeElement,
      dateHeure: utcInstant(r.DateHeure, zone, `${path}.DateHeure`, issues),
      numLigne: r.NumLigne,
      etat: r.Etat,
      log: r.Log ?? '',
      enreg: r.Enreg,
      sentTexts: sentTextsOf(r, shown),
      file: storedFile(r.Fichier),
    };
  });
}

/** A record's values: $1 the installation, $2 the time of receipt, then its own parameters. */
const RECORD_VALUES = '$1 ? ? ? ?::timestamptz ?::int ? ?::smallint ? ? ?::boolean ?::jsonb $2 $2'.split(' ');

function insertRecordsStatement(count: number): string {
  return `INSERT INTO import_records (installation_id, id_interne, type_enreg, ref_doc, date_heure, num_ligne,
    type_element, etat, log, enreg, has_file, sent_texts, received_at, updated_at)
  VALUES ${valuesList(count, 2, RECORD_VALUES)}
  ON CONFLICT (installation_id, id_interne) DO NOTHING
  RETURNING id, id_interne AS "idInterne"`;
}

const INSERT_FILES = `INSERT INTO import_record_files (record_id, name, size, content)
  SELECT * FROM unnest($1::bigint[], $2::text[], $3::int[], $4::bytea[])`;

/** The emails' view of a record (docs/mail.md). */
const recordItem = (r: Pick<RecordRow, 'idInterne' | 'refDoc' | 'typeEnreg' | 'dateHeure'>) => ({
  id: r.idInterne,
  ref: r.refDoc,
  type: r.typeEnreg,
  at: r.dateHeure.toISOString(),
});

/**
 * One multi-row statement for the records of a chunk, one for their files; the records inserted.
 * The inserted ones that arrive imported (1) or rejected (-1) join `arrivals`.
 */
async function writeRecords(
  tx: Queryable,
  installationId: string,
  rows: RecordRow[],
  now: Date,
  standard: boolean,
  arrivals: Arrivals,
): Promise<number> {
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
      r.enreg,
      r.file !== null,
      r.sentTexts,
    );
  }
  const inserted = await tx.query<{ id: string; idInterne: string }>(
    insertRecordsStatement(rows.length),
    params,
    standard ? { prepare: `connector_insert_records_${rows.length}` } : {},
  );
  await insertFiles(tx, rows, inserted);
  if (rows.some((r) => r.etat !== 0)) {
    const fresh = new Set(inserted.map((r) => r.idInterne));
    for (const r of rows) {
      if (!fresh.has(r.idInterne)) continue;
      if (r.etat === 1) arrivals.imported.push(recordItem(r));
      else if (r.etat === -1) arrivals.rejected.push(recordItem(r));
    }
  }
  return inserted.length;
}

/**
 * POST /api/connector/v1/import-records, its envelope checked (ZImportRecordsEnvelope): each record
 * is checked while the previous ones are written, all or nothing in one transaction (writeBatch).
 * A record already stored, or earlier in the same batch, is left as it is and counted as a
 * duplicate. The new records imported or in error write their emails in the same transaction.
 */
export async function ingestRecords(
  db: Db,
  installation: MailInstallation,
  records: readonly unknown[],
  zone: string,
  now: Date,
  configs: ConfigCache,
): Promise<TConnectorBatchAnswer> {
  const arrivals = noArrivals();
  return writeBatch(db, records, {
    chunkSize: RECORDS_PER_STATEMENT,
    prepare: (chunk, offset, issues) => prepareRecords(chunk, zone, offset, issues),
    idOf: (r) => r.idInterne,
    write: (tx, rows, standard) => writeRecords(tx, installation.id, rows, now, standard, arrivals),
    finish: (tx) => enqueueArrivals(tx, installation, configs, arrivals, now),
  });
}

async function insertFiles(
  tx: Queryable,
  rows: readonly RecordRow[],
  inserted: readonly { id: string; idInterne: string }[],
): Promise<void> {
  const fileOf = new Map(rows.filter((r) => r.file !== null).map((r) => [r.idInterne, r.file as StoredFile]));
  if (fileOf.size === 0) return;
  const withFile = inserted.filter((r) => fileOf.has(r.idInterne));
  if (withFile.length === 0) return;
  const files = withFile.map((r) => fileOf.get(r.idInterne) as StoredFile);
  await tx.query(INSERT_FILES, [
    withFile.map((r) => r.id),
    files.map((f) => f.name),
    files.map((f) => f.content.length),
    files.map((f) => f.content),
  ]);
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
  enreg: string;
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
       SELECT id, date_heure, octet_length(enreg) AS bytes,
              sum(octet_length(enreg)) OVER (ORDER BY date_heure, id) AS running
       FROM import_records
       WHERE installation_id = $1 AND etat = 0
       ORDER BY date_heure, id
       LIMIT $2)
     SELECT r.id_interne AS "idInterne", r.type_enreg AS "typeEnreg", r.ref_doc AS "refDoc",
            r.type_element AS "typeElement", r.date_heure AS "dateHeure", r.num_ligne AS "numLigne",
            ${exactText('r.enreg', 'enreg')}, r.sent_texts AS "sentTexts"
     FROM queue q JOIN import_records r ON r.id = q.id
     WHERE q.running <= $3 OR q.running = q.bytes
     ORDER BY q.date_heure, q.id`,
    [installationId, limit, maxEnregBytes],
  );
  return rows.map((r) => ({
    IDInterne: r.idInterne,
    TypeEnreg: r.sentTexts?.TypeEnreg ?? encodeConnectorText(r.typeEnreg),
    RefDoc: r.sentTexts?.RefDoc ?? encodeConnectorText(r.refDoc),
    DateHeure: formatZonedIso(r.dateHeure, zone),
    NumLigne: r.numLigne,
    TypeElement: r.sentTexts?.TypeElement ?? encodeConnectorText(r.typeElement),
    Enreg: storedText(r.enreg),
  }));
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
 * transaction. 404 for an id the installation does not have. A record that becomes imported or
 * rejected writes its emails in the same transaction (docs/mail.md).
 */
export async function applyResult(
  db: Db,
  installation: MailInstallation,
  idInterne: string,
  result: TImportResult,
  now: Date,
  configs: ConfigCache,
): Promise<TImportResultAnswer> {
  const installationId = installation.id;
  const file = storedFile(result.Fichier);
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{
      id: string;
      previous: number;
      refDoc: string;
      typeEnreg: string;
      dateHeure: Date;
    }>(
      `WITH old AS (SELECT id, etat FROM import_records WHERE installation_id = $1 AND id_interne = $2 FOR UPDATE)
       UPDATE import_records r SET etat = $3, log = coalesce($4, r.log), has_file = r.has_file OR $5, updated_at = $6
       FROM old WHERE r.id = old.id
       RETURNING r.id, old.etat AS previous, r.ref_doc AS "refDoc", r.type_enreg AS "typeEnreg", r.date_heure AS "dateHeure"`,
      [installationId, idInterne, result.Etat, result.Log ?? null, file !== null, now],
    );
    if (!row) throw unknownRecord(idInterne);
    if (row.previous !== result.Etat) {
      const arrivals = noArrivals();
      const item = recordItem({ ...row, idInterne });
      (result.Etat === 1 ? arrivals.imported : arrivals.rejected).push(item);
      await enqueueArrivals(tx, installation, configs, arrivals, now);
    }
    if (file) {
      await tx.query(
        `INSERT INTO import_record_files (record_id, name, size, content) VALUES ($1, $2, $3, $4)
         ON CONFLICT (record_id) DO UPDATE SET name = EXCLUDED.name, size = EXCLUDED.size, content = EXCLUDED.content`,
        [row.id, file.name, file.content.length, file.content],
      );
    }
    return { IDInterne: idInterne, Etat: result.Etat };
  });
}
