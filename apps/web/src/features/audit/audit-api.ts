import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AUDIT_EXPORT_PATH, AUDIT_PATH, HISTORY_LIMITS, ZAuditPage } from '@synchro/contracts';
import { api } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { queryString, type ListFilters, type ListPosition } from '../../components/history/list-state.ts';

function filterParams(filters: ListFilters, kind: string) {
  return { errorOnly: filters.errorOnly, date: filters.day, search: filters.search, kind: kind || null };
}

/** The CSV export of the filtered journal (no paging). */
export function auditExportUrl(filters: ListFilters, kind: string): string {
  return `${AUDIT_EXPORT_PATH}${queryString(filterParams(filters, kind))}`;
}

/** One page of the journal; the previous page stays on screen while the next one loads. */
export function useAudit(filters: ListFilters, kind: string, position: ListPosition) {
  const url = `${AUDIT_PATH}${queryString({
    page: position.page,
    pageSize: HISTORY_LIMITS.pageSize,
    ...filterParams(filters, kind),
    cursor: position.cursor,
  })}`;
  return useQuery({
    queryKey: queryKeys.auditPage({ url }),
    queryFn: ({ signal }) => api.get(url, { signal, schema: ZAuditPage }),
    placeholderData: keepPreviousData,
  });
}
