import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TDashboardView, TSyncAutomateResponse, TSyncType } from '@synchro/contracts';
import { api } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export function useDashboard() {
  return useQuery({
    queryKey: queryKeys.dashboard,
    queryFn: ({ signal }) => api.get<TDashboardView>('/api/dashboard', signal),
  });
}

export function useSyncAutomate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (type: TSyncType) => api.post<TSyncAutomateResponse>('/api/sync-automate', { type }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.dashboard }),
  });
}
