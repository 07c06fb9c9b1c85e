import {
  CONNECTOR_LIMITS,
  HISTORY_LIMITS,
  HISTORY_MESSAGES,
  isXmlSafeText,
  type TDisplayTimeZone,
  type TTransactionLogDetail,
  type TTransactionLogRow,
  type TTransactionLogsExportQuery,
  type TTransactionLogsPage,
  type TTransactionLogsQuery,
} from '@synchro/contracts';
import { decodeConnectorText } from '@synchro/config-xml';
import type { Db, Queryable } from '../../db/types.ts';
import { LOG_HEAD_CHARS, readBlob } from '../../domain/blobs.ts';
import type { CsvExport } from '../../domain/history-export.ts';
import {
  listPage,
  type HistoryFilters,
  type HistoryTable,
  type KeyedRow,
} from '../../domain/history-list.ts';
import { AppError } from '../../http/errors.ts';
import { dayRangeIn } from '../../time/day-range.ts';

/** The transaction trace as the list engine reads it (indexes and counters: migration 004). */
export const TRANSACTION_LOGS: HistoryTable = {
  name: 'transaction-logs',
  table: 'transaction_logs',
  time: 'date_heure_trt',
  error: 'err = 1',
  searchText: 'search_text',
  dayCounts: 'transaction_log_day_counts',
  // Terminaux's link to the trace (migration 014: its index; 018: each terminal's totals).
  terminal: { column: 'id_tablette', counts: 'terminal_last_exchange' },
};

const COLUMNS = `tx_id AS "ID", err AS "Err", date_heure_trt AS "dateHeureTrt", num_transaction AS "NumTransaction",
  type_doc AS "TypeDoc", ref_doc AS "RefDoc", id_tablette AS "IDTablette", libelle_tablette AS "LibelleTablette"`;

/** A list row reads the beginning of the log only (a log may be megabytes long). */
const LIST_COLUMNS = `${COLUMNS}, left(log, ${LOG_HEAD_CHARS}) AS "logHead",
  octet_length(log) > octet_length(left(log, ${LOG_HEAD_CHARS})) AS "logCut"`;

interface TransactionRow extends Omit<TTransactionLogRow, 'DateHeureTrt' | 'Err' | 'Log' | 'logTruncated'> {
  Err: number;
  dateHeureTrt: Date;
}

interface ListRow extends TransactionRow {
  logHead: string;
  logCut: boolean;
}

/**
 * The display text of the beginning of a stored log. A cut may end inside a character's bytes
 * (the connector's convention): the last one to three stored characters are then dropped until
 * the rest decodes.
 */
export function decodeLogHead(head: string, cut: boolean): string {
  const decoded = decodeConnectorText(head);
  if (!cut || decoded !== head || !/[\u0080-\uffff]/.test(head)) return decoded;
  for (let drop = 1; drop <= 3; drop++) {
    const shorter = head.slice(0, -drop);
    const attempt = decodeConnectorText(shorter);
    if (attempt !== shorter) return attempt;
  }
  return decoded;
}

/** The first lines and characters of a decoded log, and whether anything was left out. */
export function logPreview(text: string, alreadyCut: boolean): { Log: string; logTruncated: boolean } {
  const { logPreviewChars, logPreviewLines } = HISTORY_LIMITS;
  let end = Math.min(text.length, logPreviewChars);
  let lineStart = 0;
  for (let line = 1; line <= logPreviewLines; line++) {
    const nl = text.indexOf('\n', lineStart);
    if (nl < 0 || nl >= end) break;
    if (line === logPreviewLines) end = nl;
    lineStart = nl + 1;
  }
  const preview = text.slice(0, end).replace(/\r$/, '');
  return { Log: preview, logTruncated: alreadyCut || text.slice(end).trim() !== '' };
}

function toRow(r: TransactionRow, log: { Log: string; logTruncated: boolean }): TTransactionLogRow {
  return {
    ID: r.ID,
    Err: r.Err === 1 ? 1 : 0,
    DateHeureTrt: r.dateHeureTrt.toISOString(),
    NumTransaction: r.NumTransaction,
    TypeDoc: r.TypeDoc,
    RefDoc: r.RefDoc,
    IDTablette: r.IDTablette,
    LibelleTablette: r.LibelleTablette,
    ...log,
  };
}

const toListRow = (r: ListRow) => toRow(r, logPreview(decodeLogHead(r.logHead, r.logCut), r.logCut));

export function transactionFilters(
  query: Pick<TTransactionLogsExportQuery, 'errorOnly' | 'dateFilter' | 'searchText' | 'terminal'>,
  zone: string,
): HistoryFilters {
  return {
    errorOnly: query.errorOnly,
    terminals: query.terminal ?? null,
    range: query.dateFilter ? dayRangeIn(query.dateFilter, zone) : null,
    search: query.searchText ?? null,
  };
}

export async function listTransactions(
  db: Db,
  installationId: string,
  query: TTransactionLogsQuery,
  displayTimeZone: TDisplayTimeZone,
  retentionDays: number | null,
  secret: string,
): Promise<TTransactionLogsPage> {
  const { rows, paging } = await listPage(
    db,
    TRANSACTION_LOGS,
    installationId,
    transactionFilters(query, displayTimeZone.zone),
    query,
    { columns: LIST_COLUMNS, secret, map: toListRow },
  );
  return { logs: rows, pagination: paging, displayTimeZone, retentionDays };
}

/** Excel keeps at most 32 767 characters in a cell: a longer log is cut, and says so. */
const CSV_LOG_MAX = 32_000;
/** Stored characters that decode to at least CSV_LOG_MAX + 1 (a character is at most 4 bytes). */
const CSV_STORED_LOG_MAX = 4 * (CSV_LOG_MAX + 1);

/** The beginning of each log only: the few long ones are read one by one (completeLongLogs). */
const CSV_COLUMNS = `err, (extract(epoch FROM date_heure_trt) * 1000)::float8 AS "epochMs", num_transaction AS "numTransaction",
  type_doc AS "typeDoc", id_tablette AS "idTablette", libelle_tablette AS "libelleTablette", ref_doc AS "refDoc",
  tx_id AS "txId", left(log, ${LOG_HEAD_CHARS + 1}) AS log, log_blob AS "logBlob"`;

interface CsvSource {
  err: number;
  epochMs: number;
  numTransaction: string;
  typeDoc: string;
  idTablette: string;
  libelleTablette: string;
  refDoc: string;
  txId: string;
  log: string;
  logBlob: string | null;
}

/** The first CSV_STORED_LOG_MAX stored characters of the logs the CSV columns cut. */
async function completeLongLogs(db: Queryable, rows: (CsvSource & KeyedRow)[]): Promise<void> {
  for (const row of rows) {
    if (row.log.length <= LOG_HEAD_CHARS) continue;
    if (row.logBlob !== null) {
      row.log = await readBlob(db, row.logBlob, CSV_STORED_LOG_MAX);
      continue;
    }
    const [full] = await db.query<{ log: string }>(
      'SELECT left(log, $2) AS log FROM transaction_logs WHERE id = $1',
      [row.rowId, CSV_STORED_LOG_MAX],
    );
    row.log = full?.log ?? row.log;
  }
}

/** The trace's CSV (TRANSACTION_LOGS_CSV_HEADERS), with whole decoded logs. */
export const TRANSACTION_CSV: CsvExport<CsvSource> = {
  table: TRANSACTION_LOGS,
  columns: CSV_COLUMNS,
  complete: completeLongLogs,
  cells: (r, time) => {
    const log = decodeLogHead(r.log, r.log.length >= CSV_STORED_LOG_MAX);
    return [
      r.err === 1 ? 'Erreur' : 'OK',
      time.text,
      time.offset,
      r.numTransaction,
      r.typeDoc,
      r.idTablette,
      r.libelleTablette,
      r.refDoc,
      r.txId,
      log.length > CSV_LOG_MAX ? `${log.slice(0, CSV_LOG_MAX)}… (log tronqué)` : log,
    ];
  },
};

/** GET /api/transaction-logs/{ID}: the transaction and its whole log; 404 when not this installation's. */
export async function transactionDetail(
  db: Queryable,
  installationId: string,
  id: string,
): Promise<TTransactionLogDetail> {
  const notFound = () => new AppError(404, HISTORY_MESSAGES.transactionNotFound, 'NOT_FOUND');
  if (id.trim() === '' || id.length > CONNECTOR_LIMITS.idMaxChars || !isXmlSafeText(id)) throw notFound();
  const [row] = await db.query<TransactionRow & { log: string; logBlob: string | null }>(
    `SELECT ${COLUMNS}, log, log_blob AS "logBlob" FROM transaction_logs WHERE installation_id = $1 AND tx_id = $2`,
    [installationId, id],
  );
  if (!row) throw notFound();
  const log = row.logBlob === null ? row.log : await readBlob(db, row.logBlob);
  return toRow(row, { Log: decodeConnectorText(log), logTruncated: false });
}
