import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DRIVE_PATHS,
  ZDriveConnectAnswer,
  ZDriveDisconnectAnswer,
  ZDriveStatus,
  type TDriveConnectRequest,
  type TDriveProvider,
} from '@synchro/contracts';
import { api } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';

/** The drive link of the installation and the providers this server can connect (docs/mail.md, Drive). */
export function useDriveStatus() {
  return useQuery({
    queryKey: queryKeys.drive,
    queryFn: ({ signal }) => api.get(DRIVE_PATHS.status, { signal, schema: ZDriveStatus }),
  });
}

/** « Connecter »: the provider's authorisation page, where the browser then goes. */
export function useDriveConnect() {
  return useMutation({
    mutationFn: (provider: TDriveProvider) =>
      api.post(DRIVE_PATHS.connect, {
        body: { provider } satisfies TDriveConnectRequest,
        schema: ZDriveConnectAnswer,
      }),
  });
}

export function useDriveDisconnect() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post(DRIVE_PATHS.disconnect, { schema: ZDriveDisconnectAnswer }),
    onSuccess: ({ grantKept: _kept, ...status }) => queryClient.setQueryData(queryKeys.drive, status),
  });
}
