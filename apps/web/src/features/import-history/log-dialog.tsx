import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Check, Copy } from 'lucide-react';
import type { TSyncHistoryRow } from '@synchro/contracts';
import { errorDetail } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { Button } from '../../components/ui/button.tsx';
import { ErrorState } from '../../components/ui/error-state.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { Textarea } from '../../components/ui/input.tsx';
import { LoadingState } from '../../components/ui/spinner.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { fetchRecordLog } from './history-api.ts';
import { HISTORY_TEXT } from './history-messages.ts';

/**
 * 'Log de synchronisation': the record's log (fetched on opening), with a copy button and 'Aucun
 * log disponible' when empty. Mounted per record (key), so the copy state starts afresh.
 */
export function LogDialog({ record, onClose }: { record: TSyncHistoryRow | null; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const id = record?.IDInterne ?? '';
  const log = useQuery({
    queryKey: queryKeys.syncHistoryLog(id),
    queryFn: ({ signal }) => fetchRecordLog(id, signal),
    enabled: record !== null,
    gcTime: 0,
  });

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const text = log.data ?? '';
  const empty = log.isSuccess && text.trim() === '';
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      toast({ title: HISTORY_TEXT.logCopied });
    } catch {
      toast({ title: HISTORY_TEXT.logCopyFailed, variant: 'destructive' });
    }
  };

  return (
    <Dialog open={record !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>{HISTORY_TEXT.logTitle}</DialogTitle>
          <DialogDescription>
            {record ? `${record.TypeEnreg} ${record.RefDoc}`.trim() : null}
          </DialogDescription>
        </DialogHeader>
        {log.isPending ? <LoadingState label="Chargement du log..." className="min-h-32" /> : null}
        {log.isError ? (
          <ErrorState
            compact
            title={HISTORY_TEXT.logLoadFailed}
            message={errorDetail(log.error, 'Le serveur ne répond pas.')}
            retrying={log.isFetching}
            onRetry={() => void log.refetch()}
          />
        ) : null}
        {empty ? (
          <p className="rounded-md border border-dashed border-border px-4 py-8 text-center text-sm text-muted-foreground">
            {HISTORY_TEXT.logEmpty}
          </p>
        ) : null}
        {log.isSuccess && !empty ? (
          <Textarea
            readOnly
            aria-label="Contenu du log"
            value={text}
            rows={16}
            className="max-h-[60vh] min-h-48 resize-y bg-muted/60 font-mono text-xs leading-relaxed"
          />
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Fermer
          </Button>
          <Button disabled={!log.isSuccess || empty} onClick={() => void copy()}>
            {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
            {copied ? HISTORY_TEXT.logCopied : 'Copier le log'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
