import { useEffect, useRef } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  DASHBOARD_ACTIVITY_PATH,
  ZDashboardActivity,
  ZDashboardView,
  ZSyncAutomateResponse,
  type TSyncAutomateRequest,
  type TSyncType,
} from '@synchro/contracts';
import { api } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { API_PATHS } from '@synchro/contracts/constants';

/**
 * After an accepted order the connector writes the new last sync when it has played it: the
 * dashboard is read again when the order answers, then after these delays.
 */
export const SYNC_REFETCH_DELAYS_MS = [3_000, 10_000, 30_000] as const;

const dashboardQuery = {
  queryKey: queryKeys.dashboard,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api.get(API_PATHS.dashboard, { signal, schema: ZDashboardView }),
};

export function useDashboard() {
  return useQuery(dashboardQuery);
}

/** « Activité » and « À traiter » (apart from the view: key queryKeys.dashboardActivity). */
export function useDashboardActivity() {
  return useQuery({
    queryKey: queryKeys.dashboardActivity,
    queryFn: ({ signal }) => api.get(DASHBOARD_ACTIVITY_PATH, { signal, schema: ZDashboardActivity }),
  });
}

/**
 * Général's data asked for before its screen renders (app/preload.ts): the screen shows it at once;
 * being always stale, it is still read again when the screen mounts (in the background).
 */
export const prefetchDashboard = (queryClient: QueryClient) => queryClient.prefetchQuery(dashboardQuery);

export function useSyncAutomate() {
  const queryClient = useQueryClient();
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);
  const refetch = () => void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });
  return useMutation({
    mutationFn: (type: TSyncType) =>
      api.post(API_PATHS.syncAutomate, {
        body: { type } satisfies TSyncAutomateRequest,
        schema: ZSyncAutomateResponse,
      }),
    onSettled: (result) => {
      refetch();
      if (result?.retSync !== 1) return;
      // One array for the component's life (the unmount cleanup clears what it holds then).
      timers.current.splice(0).forEach(clearTimeout);
      timers.current.push(...SYNC_REFETCH_DELAYS_MS.map((delay) => setTimeout(refetch, delay)));
    },
  });
}
