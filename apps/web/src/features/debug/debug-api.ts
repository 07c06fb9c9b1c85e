import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZRepairResponse, ZXmlStatusResponse, type TXmlStatusResponse } from '@synchro/contracts';
import { api } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { API_PATHS } from '@synchro/contracts/constants';

/** GET /api/debug/xml-status: the diagnostic of the signed-in installation's configuration. */
export function useXmlStatus() {
  return useQuery({
    queryKey: queryKeys.xmlStatus,
    queryFn: ({ signal }) => api.get(API_PATHS.debugXmlStatus, { signal, schema: ZXmlStatusResponse }),
  });
}

/**
 * POST /api/debug/repair-xml (body `{}`). On success the answer's diagnostic is shown at once, then
 * the diagnostic, the user (its ConfigConnecteur) and the dashboard are refetched (docs/spec-notes.md, Web: Diagnostic).
 */
export function useRepairXml() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post(API_PATHS.debugRepairXml, { body: {}, schema: ZRepairResponse }),
    onSuccess: async (result) => {
      queryClient.setQueryData<TXmlStatusResponse>(queryKeys.xmlStatus, result.diagnostic);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.xmlStatus }),
        queryClient.invalidateQueries({ queryKey: queryKeys.user }),
        queryClient.invalidateQueries({ queryKey: queryKeys.dashboard }),
      ]);
    },
  });
}
