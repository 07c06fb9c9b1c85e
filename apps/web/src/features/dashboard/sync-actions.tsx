import { RefreshCw, Zap } from 'lucide-react';
import type { TDashboardView, TSyncType } from '@synchro/contracts';
import { Button } from '../../components/ui/button.tsx';
import { ActionCard, CardHeading } from '../../components/ui/section-card.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { errorDetail } from '../../lib/api-client.ts';
import { frenchSpacing } from '../../lib/french-text.ts';
import { AutomateStatus } from './automate-status.tsx';
import { useSyncAutomate } from './dashboard-api.ts';
import { SYNC_ERROR_TITLE, SYNC_RUNNING_LABEL, SYNC_TOAST_TITLE } from './dashboard-messages.ts';

const SYNC_BUTTONS: readonly { type: TSyncType; label: string; hint: string }[] = [
  { type: 'C', label: 'Complète', hint: 'Toutes les données' },
  { type: 'R', label: 'Incrémentale', hint: 'Les modifications depuis la dernière synchronisation' },
  { type: 'I', label: 'Import des saisies', hint: 'Les saisies des terminaux vers votre ERP' },
];

/** A failure explains what to check: it stays longer than the default 5 s. */
const FAILURE_TOAST_MS = 10_000;

export function SyncActions({ view, fetchedAt }: { view: TDashboardView; fetchedAt: number }) {
  const sync = useSyncAutomate();
  const running = sync.isPending ? sync.variables : null;

  const launch = (type: TSyncType) => {
    sync.mutate(type, {
      // retInfo keeps its lines (the toast shows them); normal when retSync is 1.
      onSuccess: (result) =>
        toast({
          title: SYNC_TOAST_TITLE,
          description: frenchSpacing(result.retInfo),
          ...(result.retSync === 1
            ? { variant: 'default' }
            : { variant: 'destructive', duration: FAILURE_TOAST_MS }),
        }),
      onError: (error) =>
        toast({
          title: SYNC_ERROR_TITLE,
          description: errorDetail(error, 'La demande de synchronisation a échoué.'),
          variant: 'destructive',
          duration: FAILURE_TOAST_MS,
        }),
    });
  };

  return (
    <ActionCard>
      <div className="flex flex-col gap-5 p-5 sm:p-6">
        <CardHeading
          tone="solid"
          icon={<Zap aria-hidden="true" />}
          title="Lancer une synchronisation"
          description="La demande est transmise au service automate installé sur votre serveur."
        />
        <AutomateStatus
          service={view.automateService}
          fetchedAt={fetchedAt}
          zone={view.displayTimeZone.zone}
        />
        {/* Sized on the card, not the viewport: each button must hold "Synchronisation en cours..."
            on one line (about 17.5 rem), so three across from 54 rem, else one per row with its
            hint beside it, and stacked on phones. */}
        <div className="@container">
          <div className="grid gap-3 @min-[54rem]:grid-cols-3">
            {SYNC_BUTTONS.map((button) => (
              <div
                key={button.type}
                className="grid min-w-0 content-start gap-1.5 @min-[34rem]:flex @min-[34rem]:items-center @min-[34rem]:gap-4 @min-[54rem]:grid @min-[54rem]:gap-1.5"
              >
                <Button
                  variant={button.type === 'C' ? 'primary' : 'outline'}
                  className="h-auto min-h-10 w-full py-2 text-center whitespace-normal @min-[34rem]:w-[17.5rem] @min-[34rem]:shrink-0 @min-[54rem]:w-full"
                  busy={running === button.type}
                  disabled={running !== null}
                  onClick={() => launch(button.type)}
                >
                  {running === button.type ? null : <RefreshCw aria-hidden="true" />}
                  {running === button.type ? SYNC_RUNNING_LABEL : button.label}
                </Button>
                <p className="text-center text-xs text-muted-foreground @min-[34rem]:text-left @min-[54rem]:text-center">
                  {button.hint}
                </p>
              </div>
            ))}
          </div>
        </div>
      </div>
    </ActionCard>
  );
}
