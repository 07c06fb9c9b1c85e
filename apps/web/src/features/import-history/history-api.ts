import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  HISTORY_LIMITS,
  SYNC_HISTORY_BULK_STATUS_PATH,
  SYNC_HISTORY_EXPORT_PATH,
  SYNC_HISTORY_PATH,
  ZSyncHistoryBulkStatusAnswer,
  ZSyncHistoryPage,
  ZSyncHistoryStatusAnswer,
  ZSyncHistoryXml,
  ZSyncHistoryXmlSaved,
  syncHistoryRecordPath,
  type TEtat,
  type TSyncHistoryPage,
  type TSyncHistoryRow,
  type TSyncHistoryStatusRequest,
} from '@synchro/contracts';
import { api, type LongText } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import {
  localNoonIso,
  queryString,
  type ListFilters,
  type ListPosition,
} from '../../components/history/list-state.ts';

/** The history's filters as the API names them (`date`: local noon of the day, as ISO). */
function filterParams(filters: ListFilters) {
  return {
    errorOnly: filters.errorOnly,
    waitingOnly: filters.waiting ? true : null,
    date: filters.day ? localNoonIso(filters.day) : null,
    search: filters.search,
  };
}

/**
 * GET /api/sync-history with the filters, the page and its cursor (docs/spec-notes.md, Import
 * history and transaction trace).
 */
export function historyListUrl(filters: ListFilters, position: ListPosition): string {
  return `${SYNC_HISTORY_PATH}${queryString({
    page: position.page,
    pageSize: HISTORY_LIMITS.pageSize,
    ...filterParams(filters),
    cursor: position.cursor,
  })}`;
}

/** The CSV export of the filtered history (no paging). */
export function historyExportUrl(filters: ListFilters): string {
  return `${SYNC_HISTORY_EXPORT_PATH}${queryString(filterParams(filters))}`;
}

/** One page of the history; the previous page stays on screen while the next one loads. */
export function useSyncHistory(filters: ListFilters, position: ListPosition) {
  const url = historyListUrl(filters, position);
  return useQuery({
    queryKey: queryKeys.syncHistoryPage({ url }),
    queryFn: ({ signal }) => api.get(url, { signal, schema: ZSyncHistoryPage }),
    placeholderData: keepPreviousData,
  });
}

/** Replaces one record's row in every cached page of the history. */
function updateCachedRow(
  queryClient: ReturnType<typeof useQueryClient>,
  id: string,
  update: (row: TSyncHistoryRow) => TSyncHistoryRow,
) {
  queryClient.setQueriesData<TSyncHistoryPage>({ queryKey: queryKeys.syncHistory }, (page) =>
    page?.data.some((row) => row.IDInterne === id)
      ? { ...page, data: page.data.map((row) => (row.IDInterne === id ? update(row) : row)) }
      : page,
  );
}

export interface StatusChange {
  id: string;
  newStatus: TEtat;
}

/**
 * PATCH …/status (docs/spec-notes.md, Import history and transaction trace): the new state shows at
 * once, the answer's row then replaces the cached one; on failure the list is refetched.
 */
export function useStatusChange(options: { onError: (error: unknown) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, newStatus }: StatusChange) =>
      api.patch(syncHistoryRecordPath(id, 'status'), {
        body: { newStatus } satisfies TSyncHistoryStatusRequest,
        schema: ZSyncHistoryStatusAnswer,
      }),
    onMutate: async ({ id, newStatus }) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.syncHistory });
      updateCachedRow(queryClient, id, (row) => ({ ...row, Etat: newStatus }));
    },
    onSuccess: (row) => updateCachedRow(queryClient, row.IDInterne, () => row),
    onError: async (error) => {
      options.onError(error);
      await queryClient.invalidateQueries({ queryKey: queryKeys.syncHistory });
    },
  });
}

export function fetchRecordXml(id: string, signal?: AbortSignal) {
  return api.get(syncHistoryRecordPath(id, 'xml'), {
    schema: ZSyncHistoryXml,
    ...(signal ? { signal } : {}),
  });
}

/** `xml` as pieces (record-document.ts): the body writes them as its one `xml` string (ZSyncHistoryXmlRequest). */
export function saveRecordXml(id: string, xml: LongText) {
  return api.put(syncHistoryRecordPath(id, 'xml'), {
    body: { xml },
    schema: ZSyncHistoryXmlSaved,
  });
}

export function fetchRecordLog(id: string, signal?: AbortSignal) {
  return api.text(syncHistoryRecordPath(id, 'log'), signal ? { signal } : {});
}

/**
 * The record's produced file; its name from `Content-Disposition`, else download.xml
 * (docs/spec-notes.md, Web: Historique d'importation).
 */
export function fetchRecordFile(id: string) {
  return api.download(syncHistoryRecordPath(id, 'file'), 'download.xml');
}

/**
 * POST …/bulk-status for every record the filters match: `dryRun` counts them (the
 * confirmation's figure), else changes them; the pages and Général's figures are read again.
 */
export function bulkStatusBody(filters: ListFilters, newStatus: 0 | 1, dryRun: boolean) {
  const p = filterParams(filters);
  return {
    newStatus,
    dryRun,
    errorOnly: p.errorOnly,
    ...(p.waitingOnly ? { waitingOnly: true } : {}),
    ...(p.date ? { date: p.date } : {}),
    ...(p.search ? { search: p.search } : {}),
  };
}

export function countBulkStatus(filters: ListFilters, newStatus: 0 | 1) {
  return api.post(SYNC_HISTORY_BULK_STATUS_PATH, {
    body: bulkStatusBody(filters, newStatus, true),
    schema: ZSyncHistoryBulkStatusAnswer,
  });
}

export function useBulkStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ filters, newStatus }: { filters: ListFilters; newStatus: 0 | 1 }) =>
      api.post(SYNC_HISTORY_BULK_STATUS_PATH, {
        body: bulkStatusBody(filters, newStatus, false),
        schema: ZSyncHistoryBulkStatusAnswer,
      }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.syncHistory });
      void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });
    },
  });
}
