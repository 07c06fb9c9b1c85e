import type { TTransactionLogRow } from '@synchro/contracts';
import { errorDetail } from '../../lib/api-client.ts';
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
import { listTime } from '../../components/history/list-time.ts';
import { useTransactionDetail } from './transaction-logs-api.ts';
import { TRACE_TEXT } from './transaction-messages.ts';
import { TransactionState } from './transaction-state.tsx';

export interface TransactionDetailDialogProps {
  row: TTransactionLogRow | null;
  zone: string;
  onClose: () => void;
}

/** 'Voir plus': the transaction's date, terminal, ids and whole log. */
export function TransactionDetailDialog({ row, zone, onClose }: TransactionDetailDialogProps) {
  const detail = useTransactionDetail(row);
  const shown = detail.data ?? row;
  const facts: [string, string][] = shown
    ? [
        ['Date de transaction', listTime(shown.DateHeureTrt, zone)],
        ['Terminal', [shown.LibelleTablette, shown.IDTablette].filter(Boolean).join(' — ') || '—'],
        ['ID', shown.ID],
        ['N° Transaction', shown.NumTransaction || '—'],
        ['Etape Sync', shown.TypeDoc || '—'],
        ['Référence document', shown.RefDoc || '—'],
      ]
    : [];
  return (
    <Dialog open={row !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>{TRACE_TEXT.detailTitle}</DialogTitle>
          <DialogDescription>Transaction {shown?.NumTransaction || shown?.ID}</DialogDescription>
        </DialogHeader>
        {shown ? (
          <>
            <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
              <dt className="text-muted-foreground">État</dt>
              <dd>
                <TransactionState err={shown.Err} />
              </dd>
              {facts.map(([term, value]) => (
                <div key={term} className="contents">
                  <dt className="text-muted-foreground">{term}</dt>
                  <dd className="min-w-0 break-all">{value}</dd>
                </div>
              ))}
            </dl>
            <h3 className="text-sm font-semibold">Contenu du log</h3>
            {row?.logTruncated && detail.isPending ? (
              <LoadingState label="Chargement du log complet..." className="min-h-32" />
            ) : detail.isError ? (
              <ErrorState
                compact
                title={TRACE_TEXT.logLoadFailed}
                message={errorDetail(detail.error, TRACE_TEXT.loadError)}
                retrying={detail.isFetching}
                onRetry={() => void detail.refetch()}
              />
            ) : (
              <Textarea
                readOnly
                aria-label="Contenu du log"
                value={shown.Log || 'Aucun log disponible'}
                rows={14}
                className="max-h-[50vh] min-h-40 resize-y bg-muted/60 font-mono text-xs leading-relaxed"
              />
            )}
          </>
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Fermer
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
