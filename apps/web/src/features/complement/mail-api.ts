import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  MAIL_PATHS,
  outboxMailPath,
  ZOutboxList,
  ZOutboxMailDetail,
  ZTestReportAnswer,
  type TTestReportRequest,
} from '@synchro/contracts';
import { api } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';

/** « Emails envoyés »: the installation's newest emails (docs/mail.md). */
export function useOutbox() {
  return useQuery({
    queryKey: queryKeys.outbox,
    queryFn: ({ signal }) => api.get(MAIL_PATHS.outbox, { signal, schema: ZOutboxList }),
  });
}

/** One email as it was sent (its text and HTML). */
export function useOutboxMail(id: string | null) {
  return useQuery({
    queryKey: queryKeys.outboxMail(id ?? ''),
    queryFn: ({ signal }) => api.get(outboxMailPath(id ?? ''), { signal, schema: ZOutboxMailDetail }),
    enabled: id !== null,
  });
}

/** « Test rapport »: sent now to the address of the field; the list shows it afterwards. */
export function useTestReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mailDestinataire: string) =>
      api.post(MAIL_PATHS.testReport, {
        body: { mailDestinataire } satisfies TTestReportRequest,
        schema: ZTestReportAnswer,
      }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: queryKeys.outbox }),
  });
}
