import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZDashboardView, ZSyncAutomateResponse, type TSyncType } from '@synchro/contracts';
import { api } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export function useDashboard() {
  return useQuery({
    queryKey: queryKeys.dashboard,
    queryFn: ({ signal }) => api.get('/api/dashboard', { signal, schema: ZDashboardView }),
  });
}

export function useSyncAutomate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (type: TSyncType) =>
      api.post('/api/sync-automate', { body: { type }, schema: ZSyncAutomateResponse }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.dashboard }),
  });
}
