import {
  CONNECTOR_LIMITS,
  HISTORY_MESSAGES,
  isXmlSafeText,
  type TDisplayTimeZone,
  type TEtat,
  type TSyncHistoryBulkStatusAnswer,
  type TSyncHistoryBulkStatusRequest,
  type TSyncHistoryExportQuery,
  type TSyncHistoryPage,
  type TSyncHistoryQuery,
  type TSyncHistoryRow,
} from '@synchro/contracts';
import type { Db, Queryable } from '../../db/types.ts';
import type { AppContext } from '../../context.ts';
import { recordAudit } from '../../domain/audit.ts';
import { attachBlobs, deleteBlobs, writeApart } from '../../domain/blobs.ts';
import { readRecordFile, readRecordValue, type RecordColumn } from '../../domain/record-values.ts';
import type { CsvExport, HistoryActor } from '../../domain/history-export.ts';
import { listPage, whereOf, type HistoryFilters, type HistoryTable } from '../../domain/history-list.ts';
import { AppError } from '../../http/errors.ts';
import { dayRangeIn } from '../../time/day-range.ts';

/** The import records as the list engine reads them (indexes and counters: migration 004). */
export const IMPORT_RECORDS: HistoryTable = {
  name: 'import-history',
  table: 'import_records',
  time: 'date_heure',
  error: 'etat = -1',
  searchText: 'search_text',
  dayCounts: 'import_record_day_counts',
  waiting: {
    sql: 'etat = 0',
    count:
      'SELECT coalesce(sum(n), 0)::bigint AS n FROM import_record_state_counts WHERE installation_id = $1 AND etat = 0',
  },
};

/** A list row: never the XML, the log or the file (their size aside). */
const ROW_COLUMNS = `id_interne AS "IDInterne", etat AS "Etat", type_enreg AS "TypeEnreg", ref_doc AS "RefDoc",
  date_heure AS "dateHeure", num_ligne AS "NumLigne", type_element AS "TypeElement", has_file AS "hasFile",
  octet_length(log) > 0 AS "hasLog"`;

interface RecordRow extends Omit<TSyncHistoryRow, 'DateHeure' | 'Etat'> {
  Etat: number;
  dateHeure: Date;
}

function toRow(r: RecordRow): TSyncHistoryRow {
  return {
    IDInterne: r.IDInterne,
    Etat: r.Etat === 1 || r.Etat === -1 ? r.Etat : 0,
    TypeEnreg: r.TypeEnreg,
    RefDoc: r.RefDoc,
    DateHeure: r.dateHeure.toISOString(),
    NumLigne: r.NumLigne,
    TypeElement: r.TypeElement,
    hasFile: r.hasFile,
    hasLog: r.hasLog,
  };
}

export function historyFilters(
  query: Pick<TSyncHistoryExportQuery, 'errorOnly' | 'date' | 'search' | 'waitingOnly'>,
  zone: string,
): HistoryFilters {
  return {
    errorOnly: query.errorOnly,
    waitingOnly: query.waitingOnly,
    range: query.date ? dayRangeIn(query.date, zone) : null,
    search: query.search ?? null,
  };
}

export async function listHistory(
  db: Db,
  installationId: string,
  query: TSyncHistoryQuery,
  displayTimeZone: TDisplayTimeZone,
  retentionDays: number | null,
  secret: string,
): Promise<TSyncHistoryPage> {
  const { rows, paging } = await listPage(
    db,
    IMPORT_RECORDS,
    installationId,
    historyFilters(query, displayTimeZone.zone),
    query,
    { columns: ROW_COLUMNS, secret, map: toRow },
  );
  return { data: rows, ...paging, displayTimeZone, retentionDays };
}

const ETAT_LABEL: Record<number, string> = { 1: 'Oui', 0: 'Non', [-1]: 'Erreur' };

/** The CSV columns (SYNC_HISTORY_CSV_HEADERS), the time as epoch milliseconds (no Date per row). */
const CSV_COLUMNS = `etat, type_enreg AS "typeEnreg", ref_doc AS "refDoc",
  (extract(epoch FROM date_heure) * 1000)::float8 AS "epochMs", num_ligne AS "numLigne", type_element AS "typeElement",
  id_interne AS "idInterne", has_file AS "hasFile"`;

interface CsvSource {
  etat: number;
  typeEnreg: string;
  refDoc: string;
  epochMs: number;
  numLigne: number;
  typeElement: string;
  idInterne: string;
  hasFile: boolean;
}

/** The history's CSV (SYNC_HISTORY_CSV_HEADERS). */
export const HISTORY_CSV: CsvExport<CsvSource> = {
  table: IMPORT_RECORDS,
  columns: CSV_COLUMNS,
  cells: (r, time) => [
    ETAT_LABEL[r.etat] ?? String(r.etat),
    r.typeEnreg,
    r.refDoc,
    time.text,
    time.offset,
    r.numLigne,
    r.typeElement,
    r.idInterne,
    r.hasFile ? 'Oui' : 'Non',
  ],
};

// ---------------------------------------------------------------------------------------------
// One record

/**
 * The `{id}` of a record route is its IDInterne as the connector gave it. One that no connector
 * could have sent (blank, too long, control characters) is not looked up: 404 like an unknown one.
 */
export function isPlausibleRecordId(id: string): boolean {
  return id.trim() !== '' && id.length <= CONNECTOR_LIMITS.idMaxChars && isXmlSafeText(id);
}

export const recordNotFound = () => new AppError(404, HISTORY_MESSAGES.recordNotFound, 'NOT_FOUND');

/** The record's row id in the installation, locked for the transaction; 404 when it has none. */
async function lockRecord(
  tx: Queryable,
  installationId: string,
  idInterne: string,
): Promise<{ id: string; etat: number }> {
  if (!isPlausibleRecordId(idInterne)) throw recordNotFound();
  const [row] = await tx.query<{ id: string; etat: number }>(
    `SELECT id::text AS id, etat FROM import_records WHERE installation_id = $1 AND id_interne = $2 FOR UPDATE`,
    [installationId, idInterne],
  );
  if (!row) throw recordNotFound();
  return row;
}

/**
 * PATCH …/status: Etat 0 puts the record back in the connector's import queue (the queue is the
 * records with Etat 0), 1 and -1 take it out. Audited when it changes; setting the same value
 * again writes nothing.
 */
export async function setStatus(
  db: Db,
  actor: HistoryActor,
  idInterne: string,
  newStatus: TEtat,
  now: Date,
): Promise<TSyncHistoryRow> {
  return db.transaction(async (tx) => {
    const record = await lockRecord(tx, actor.installationId, idInterne);
    if (record.etat !== newStatus) {
      await tx.query(`UPDATE import_records SET etat = $2, updated_at = $3 WHERE id = $1`, [
        record.id,
        newStatus,
        now,
      ]);
      await recordAudit(tx, {
        installationId: actor.installationId,
        syncId: actor.syncId,
        actor: 'user',
        action: 'history.status',
        address: actor.address,
        details: { IDInterne: idInterne, from: record.etat, to: newStatus, queued: newStatus === 0 },
      });
    }
    const [row] = await tx.query<RecordRow>(`SELECT ${ROW_COLUMNS} FROM import_records WHERE id = $1`, [
      record.id,
    ]);
    if (!row) throw recordNotFound();
    return toRow(row);
  });
}

/** A column of one record (the XML, the log), or 404. */
export async function recordText(
  db: Queryable,
  installationId: string,
  idInterne: string,
  column: RecordColumn,
): Promise<string> {
  if (!isPlausibleRecordId(idInterne)) throw recordNotFound();
  const text = await readRecordValue(db, installationId, idInterne, column);
  if (text === null) throw recordNotFound();
  return text;
}

/**
 * Stores a record's XML (already checked and encoded in the connector's convention) and audits
 * it, in one transaction: the old XML stays whole unless the new one is stored whole. An XML too
 * big for a short transaction on the embedded database is written apart first (domain/blobs.ts).
 * The same XML again writes nothing.
 */
export async function storeRecordXml(
  ctx: Pick<AppContext, 'db' | 'apart'>,
  actor: HistoryActor,
  idInterne: string,
  stored: string,
  sizeBytes: number,
  now: Date,
): Promise<void> {
  const { db } = ctx;
  if (!isPlausibleRecordId(idInterne)) throw recordNotFound();
  const current = await readRecordValue(db, actor.installationId, idInterne, 'enreg');
  if (current === null) throw recordNotFound();
  if (current === stored) return;
  let inline: string | null = stored;
  let blob: string | null = null;
  const apart = await writeApart(db, actor.installationId, ctx.apart, [
    { text: stored, moved: (id) => ((inline = null), (blob = id)) },
  ]);
  try {
    await db.transaction(async (tx) => {
      const record = await lockRecord(tx, actor.installationId, idInterne);
      await tx.query(`UPDATE import_records SET enreg = $2, enreg_blob = $3, updated_at = $4 WHERE id = $1`, [
        record.id,
        inline,
        blob,
        now,
      ]);
      await attachBlobs(tx, apart);
      await recordAudit(tx, {
        installationId: actor.installationId,
        syncId: actor.syncId,
        actor: 'user',
        action: 'history.xml',
        address: actor.address,
        details: { IDInterne: idInterne, sizeBytes },
      });
    });
  } catch (err) {
    await deleteBlobs(db, apart).catch(() => {});
    throw err;
  }
}

export interface RecordFile {
  name: string;
  content: Buffer;
}

/** The file of a record; 404 with the spec's message when it has none (or is not this installation's). */
export async function recordFile(
  db: Queryable,
  installationId: string,
  idInterne: string,
): Promise<RecordFile> {
  const notFound = () => new AppError(404, HISTORY_MESSAGES.fileNotFound, 'NOT_FOUND');
  if (!isPlausibleRecordId(idInterne)) throw notFound();
  const file = await readRecordFile(db, installationId, idInterne);
  if (!file) throw notFound();
  return file;
}

// ---------------------------------------------------------------------------------------------
// Every record a filter matches (docs/glance.md, Actions on a filter)

/**
 * POST …/bulk-status: the records the list's filters match whose state is not `newStatus` take
 * it, in one statement and one transaction with one audit row; 0 puts them back in the
 * connector's import queue (the records with Etat 0), as the single-row route does. `dryRun`
 * counts them only (the confirmation's figure). Nothing changed, nothing audited.
 */
export async function bulkSetStatus(
  db: Db,
  actor: HistoryActor,
  request: TSyncHistoryBulkStatusRequest,
  zone: string,
  now: Date,
): Promise<TSyncHistoryBulkStatusAnswer> {
  const filters = historyFilters(request, zone);
  const where = whereOf(IMPORT_RECORDS, actor.installationId, filters);
  const n = where.params.length;
  const matched = `${where.sql} AND etat <> $${n + 1}`;
  const params = [...where.params, request.newStatus];
  if (request.dryRun) {
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM import_records WHERE ${matched}`,
      params,
    );
    return { count: row?.n ?? 0, dryRun: true };
  }
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ n: number }>(
      `WITH changed AS (
         UPDATE import_records SET etat = $${n + 1}, updated_at = $${n + 2} WHERE ${matched} RETURNING 1)
       SELECT count(*)::int AS n FROM changed`,
      [...params, now],
    );
    const count = row?.n ?? 0;
    if (count > 0) {
      await recordAudit(tx, {
        installationId: actor.installationId,
        syncId: actor.syncId,
        actor: 'user',
        action: 'history.bulk-status',
        address: actor.address,
        details: {
          to: request.newStatus,
          count,
          errorOnly: filters.errorOnly,
          waitingOnly: filters.waitingOnly ?? false,
          dayFrom: filters.range?.from.toISOString() ?? null,
          dayTo: filters.range?.to.toISOString() ?? null,
          search: filters.search,
          queued: request.newStatus === 0,
        },
      });
    }
    return { count, dryRun: false };
  });
}
