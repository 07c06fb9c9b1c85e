import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CONFIG_HISTORY_PATH,
  HISTORY_LIMITS,
  ZConfigChanges,
  ZConfigHistoryPage,
  ZConfigRawDiff,
  ZRestoreResponse,
  configVersionPath,
  type THistorySection,
  type TRestoreRequest,
} from '@synchro/contracts';
import { api } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { queryString, type ListPosition } from '../../components/history/list-state.ts';

export type Against = 'previous' | 'current';

/** One page of versions; `connector`: the connector's updates one by one instead of folded. */
export function useConfigHistory(connector: boolean, position: ListPosition) {
  const url = `${CONFIG_HISTORY_PATH}${queryString({
    page: position.page,
    pageSize: HISTORY_LIMITS.pageSize,
    connector: connector ? 1 : null,
    cursor: position.cursor,
  })}`;
  return useQuery({
    queryKey: queryKeys.configHistoryPage({ url }),
    queryFn: ({ signal }) => api.get(url, { signal, schema: ZConfigHistoryPage }),
    placeholderData: keepPreviousData,
  });
}

/** The changes of a version against the one before it or the current one (null: closed). */
export function useVersionChanges(version: number | null, against: Against) {
  return useQuery({
    queryKey: queryKeys.configChanges(version ?? 0, against),
    queryFn: ({ signal }) =>
      api.get(`${configVersionPath(version!, 'changes')}${queryString({ against })}`, {
        signal,
        schema: ZConfigChanges,
      }),
    enabled: version !== null,
  });
}

/** The raw XML diff of one section (fetched when asked for). */
export function useRawDiff(version: number, section: THistorySection | null, against: Against) {
  return useQuery({
    queryKey: queryKeys.configRaw(version, section ?? '', against),
    queryFn: ({ signal }) =>
      api.get(`${configVersionPath(version, 'raw')}${queryString({ section, against })}`, {
        signal,
        schema: ZConfigRawDiff,
      }),
    enabled: section !== null,
  });
}

/**
 * The restore, sent with `If-Match` of the current version the screen showed; on success every
 * view of the configuration is read again.
 */
export function useRestore() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { version: number; current: number; sections: THistorySection[] }) =>
      api.post(configVersionPath(input.version, 'restore'), {
        body: { sections: input.sections } satisfies TRestoreRequest,
        headers: { 'If-Match': `"${input.current}"` },
        schema: ZRestoreResponse,
      }),
    onSettled: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.configHistory }),
        client.invalidateQueries({ queryKey: ['config'] }),
        client.invalidateQueries({ queryKey: queryKeys.user }),
        client.invalidateQueries({ queryKey: queryKeys.dashboard }),
        client.invalidateQueries({ queryKey: queryKeys.audit }),
      ]);
    },
  });
}
