import { useState } from 'react';
import { CheckCheck, RotateCcw } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/alert-dialog.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import type { ListFilters } from '../../components/history/list-state.ts';
import { errorDetail } from '../../lib/api-client.ts';
import { formatNumber, pluralize } from '../../lib/format.ts';
import { countBulkStatus, useBulkStatus } from './history-api.ts';

/**
 * « Tout remettre en attente » and « Tout marquer traité »: every record the current filters match
 * (not only the page shown), after a confirmation that gives how many will change (docs/glance.md).
 */

export const BULK_TEXT = {
  requeue: 'Tout remettre en attente',
  processed: 'Tout marquer traité',
  cancel: 'Annuler',
} as const;

interface Pending {
  newStatus: 0 | 1;
  count: number;
}

const records = (n: number) => pluralize(n, 'enregistrement', 'enregistrements');

function question(p: Pending): { title: string; description: string } {
  if (p.newStatus === 0) {
    return {
      title: `Remettre en attente ${records(p.count)} ?`,
      description: `${records(p.count)} du filtre actuel ${p.count > 1 ? 'seront remis' : 'sera remis'} dans la file d’import du connecteur (état « Non traité »).`,
    };
  }
  return {
    title: `Marquer ${records(p.count)} comme traité${p.count > 1 ? 's' : ''} ?`,
    description: `${records(p.count)} du filtre actuel ${p.count > 1 ? 'seront marqués' : 'sera marqué'} « Traité » et ne ${p.count > 1 ? 'seront' : 'sera'} plus importé${p.count > 1 ? 's' : ''}.`,
  };
}

export function BulkActions({ filters, disabled }: { filters: ListFilters; disabled: boolean }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const [counting, setCounting] = useState<0 | 1 | null>(null);
  const bulk = useBulkStatus();

  const ask = async (newStatus: 0 | 1) => {
    setCounting(newStatus);
    try {
      const { count } = await countBulkStatus(filters, newStatus);
      if (count === 0) {
        toast({
          title: 'Aucun enregistrement à changer',
          description:
            newStatus === 0
              ? 'Les enregistrements du filtre sont déjà en attente.'
              : 'Les enregistrements du filtre sont déjà traités.',
        });
        return;
      }
      setPending({ newStatus, count });
    } catch (error) {
      toast({
        title: 'Action impossible',
        description: errorDetail(error, 'Le serveur ne répond pas.'),
        variant: 'destructive',
      });
    } finally {
      setCounting(null);
    }
  };

  const confirm = () => {
    if (!pending) return;
    const { newStatus } = pending;
    setPending(null);
    bulk.mutate(
      { filters, newStatus },
      {
        onSuccess: ({ count }) =>
          toast({
            title: newStatus === 0 ? 'Enregistrements remis en attente' : 'Enregistrements marqués traités',
            description: `${records(count)} ${count > 1 ? 'ont changé' : 'a changé'} d’état.`,
          }),
        onError: (error) =>
          toast({
            title: 'Changement d’état impossible',
            description: errorDetail(error, 'Le serveur ne répond pas.'),
            variant: 'destructive',
          }),
      },
    );
  };

  const busy = disabled || counting !== null || bulk.isPending;
  const q = pending ? question(pending) : null;
  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Actions sur le filtre">
      <Button variant="outline" size="sm" disabled={busy} onClick={() => void ask(0)}>
        <RotateCcw aria-hidden="true" />
        {BULK_TEXT.requeue}
      </Button>
      <Button variant="outline" size="sm" disabled={busy} onClick={() => void ask(1)}>
        <CheckCheck aria-hidden="true" />
        {BULK_TEXT.processed}
      </Button>
      <ConfirmDialog
        open={pending !== null}
        title={q?.title ?? ''}
        description={q?.description ?? ''}
        cancelLabel={BULK_TEXT.cancel}
        confirmLabel={pending?.newStatus === 0 ? BULK_TEXT.requeue : BULK_TEXT.processed}
        onCancel={() => setPending(null)}
        onConfirm={confirm}
      />
      <span className="sr-only" aria-live="polite">
        {bulk.isSuccess ? `${formatNumber(bulk.data.count)} enregistrements changés` : ''}
      </span>
    </div>
  );
}
