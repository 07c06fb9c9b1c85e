import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  HISTORY_LIMITS,
  TRANSACTION_LOGS_EXPORT_PATH,
  TRANSACTION_LOGS_PATH,
  ZTransactionLogDetail,
  ZTransactionLogsPage,
  transactionLogPath,
  type TTransactionLogRow,
} from '@synchro/contracts';
import { api } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { queryString, type ListFilters, type ListPosition } from '../../components/history/list-state.ts';

/**
 * The trace's filters as the API names them (`dateFilter`: yyyy-MM-dd, docs/spec-notes.md, Web:
 * Trace des transactions).
 */
function filterParams(filters: ListFilters) {
  return {
    errorOnly: filters.errorOnly,
    dateFilter: filters.day,
    searchText: filters.search,
    terminal: filters.terminals ?? null,
  };
}

export function transactionLogsUrl(filters: ListFilters, position: ListPosition): string {
  return `${TRANSACTION_LOGS_PATH}${queryString({
    page: position.page,
    pageSize: HISTORY_LIMITS.pageSize,
    ...filterParams(filters),
    cursor: position.cursor,
  })}`;
}

/** The CSV export of the filtered trace (no paging). */
export function transactionLogsExportUrl(filters: ListFilters): string {
  return `${TRANSACTION_LOGS_EXPORT_PATH}${queryString(filterParams(filters))}`;
}

/** One page of the trace; the previous page stays on screen while the next one loads. */
export function useTransactionLogs(filters: ListFilters, position: ListPosition) {
  const url = transactionLogsUrl(filters, position);
  return useQuery({
    queryKey: queryKeys.transactionLogsPage({ url }),
    queryFn: ({ signal }) => api.get(url, { signal, schema: ZTransactionLogsPage }),
    placeholderData: keepPreviousData,
  });
}

/** 'Voir plus': the whole log, fetched only when the row holds its beginning alone. */
export function useTransactionDetail(row: TTransactionLogRow | null) {
  return useQuery({
    queryKey: queryKeys.transactionLog(row?.ID ?? ''),
    queryFn: ({ signal }) => api.get(transactionLogPath(row!.ID), { signal, schema: ZTransactionLogDetail }),
    enabled: row !== null && row.logTruncated,
  });
}
