import { z } from 'zod';
import { HISTORY_QUERY_PARTS, ZDisplayTimeZone, ZHistoryPaging } from './history.ts';

/** The transaction trace (Trace des transactions): its list, one transaction, its CSV export. */

// ---------------------------------------------------------------------------------------------
// Transaction trace: GET /api/transaction-logs

export const ZTransactionLogsQuery = z.object({
  page: HISTORY_QUERY_PARTS.page,
  pageSize: HISTORY_QUERY_PARTS.pageSize,
  errorOnly: HISTORY_QUERY_PARTS.errorOnly,
  /** yyyy-MM-dd (an ISO instant is read like the history's `date`). */
  dateFilter: HISTORY_QUERY_PARTS.day,
  /** Document type, terminal id and label, document reference, transaction number. */
  searchText: HISTORY_QUERY_PARTS.search,
  /**
   * Only the transactions of these terminal ids (IDTablette exactly; the parameter repeated for
   * several): Terminaux's link, a terminal's tablet and smartphone ids.
   */
  terminal: HISTORY_QUERY_PARTS.terminal,
  cursor: HISTORY_QUERY_PARTS.cursor,
});
export type TTransactionLogsQuery = z.output<typeof ZTransactionLogsQuery>;

export const ZTransactionLogRow = z.object({
  /** The connector's transaction ID: the `{ID}` of transactionLogPath. */
  ID: z.string(),
  /** 1 error, 0 success. */
  Err: z.union([z.literal(0), z.literal(1)]),
  /** ISO 8601 UTC. */
  DateHeureTrt: z.string(),
  NumTransaction: z.string(),
  TypeDoc: z.string(),
  RefDoc: z.string(),
  IDTablette: z.string(),
  LibelleTablette: z.string(),
  /**
   * Decoded log. In a list row, its beginning (HISTORY_LIMITS.logPreviewLines lines,
   * logPreviewChars characters); whole in the detail answer.
   */
  Log: z.string(),
  /** True when `Log` is only the beginning ('Voir plus' fetches the whole). */
  logTruncated: z.boolean(),
});
export type TTransactionLogRow = z.infer<typeof ZTransactionLogRow>;

export const ZTransactionLogsPage = z.object({
  logs: z.array(ZTransactionLogRow),
  pagination: ZHistoryPaging,
  displayTimeZone: ZDisplayTimeZone,
  /** HISTORY_RETENTION_DAYS: transactions older than that many days are deleted; null: kept for ever. */
  retentionDays: z.number().int().positive().nullable(),
});
export type TTransactionLogsPage = z.infer<typeof ZTransactionLogsPage>;

/** GET /api/transaction-logs/{ID}: the row with its whole log (`logTruncated` false). */
export const ZTransactionLogDetail = ZTransactionLogRow;
export type TTransactionLogDetail = TTransactionLogRow;

// ---------------------------------------------------------------------------------------------
// CSV export (GET TRANSACTION_LOGS_EXPORT_PATH)

export const ZTransactionLogsExportQuery = ZTransactionLogsQuery.pick({
  errorOnly: true,
  dateFilter: true,
  searchText: true,
  terminal: true,
});
export type TTransactionLogsExportQuery = z.output<typeof ZTransactionLogsExportQuery>;

/** Header row of the trace's CSV file (`;`-separated, UTF-8 with BOM). */
export const TRANSACTION_LOGS_CSV_HEADERS = [
  'État',
  'Date de transaction',
  'Décalage UTC',
  'N° Transaction',
  'Etape Sync',
  'ID Terminal',
  'Terminal',
  'Référence document',
  'ID',
  'Contenu du log',
] as const;
