import { useRef, useState } from 'react';
import { Wrench } from 'lucide-react';
import type { TRepairResponse } from '@synchro/contracts';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '../../components/ui/alert-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ActionCard, CardHeading } from '../../components/ui/section-card.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { ApiError, errorDetail } from '../../lib/api-client.ts';
import { NBSP, NNBSP } from '../../lib/format.ts';
import { useRepairXml } from './debug-api.ts';
import { changesText, frenchSpacing } from './debug-format.ts';

export const REPAIR_LABEL = 'Réparer le XML automatiquement';

export function RepairPanel({
  showButton,
  onRepaired,
}: {
  showButton: boolean;
  onRepaired: (r: TRepairResponse) => void;
}) {
  const repair = useRepairXml();
  const [open, setOpen] = useState(false);
  /** After a repair, focus goes to its result (the button may be gone with the faults). */
  const focusResult = useRef(false);

  const run = () => {
    repair.mutate(undefined, {
      onSuccess: (result) => {
        focusResult.current = true;
        setOpen(false);
        onRepaired(result);
        toast({
          title: result.changes.length ? 'XML réparé' : 'Aucune réparation nécessaire',
          description: result.changes.length
            ? `${changesText(result.changes.length)}. Sauvegarde${NBSP}: version ${result.backupVersion}.`
            : 'Le document ne contenait rien à réparer.',
        });
      },
      onError: (error) => {
        setOpen(false);
        toast({
          title: 'Réparation impossible',
          description: frenchSpacing(
            errorDetail(
              error,
              error instanceof ApiError && error.status === 422
                ? 'Le document ne peut pas être réparé automatiquement.'
                : 'La réparation a échoué.',
            ),
          ),
          variant: 'destructive',
        });
      },
    });
  };

  if (!showButton) return null;
  return (
    <ActionCard aria-labelledby="debug-repair">
      <div className="flex flex-col gap-4 p-5 sm:p-6 lg:flex-row lg:items-center lg:justify-between">
        <CardHeading
          tone="solid"
          icon={<Wrench aria-hidden="true" />}
          title="Réparation automatique"
          titleId="debug-repair"
          descriptionId="debug-repair-note"
          descriptionClassName="max-w-2xl"
          description={
            <>
              La réparation tente de corriger les erreurs courantes (caractères interdits,{' '}
              {`«${NBSP}&${NBSP}»`} isolés, entités échappées deux fois, balises mal fermées, sections
              manquantes). Une sauvegarde de la configuration est faite avant toute modification.
            </>
          }
        />
        <AlertDialog
          open={open}
          onOpenChange={(next) => {
            if (!repair.isPending) setOpen(next);
          }}
        >
          <AlertDialogTrigger asChild>
            <Button className="lg:shrink-0" aria-describedby="debug-repair-note" busy={repair.isPending}>
              {repair.isPending ? null : <Wrench aria-hidden="true" />}
              {repair.isPending ? 'Réparation en cours…' : REPAIR_LABEL}
            </Button>
          </AlertDialogTrigger>
          <AlertDialogContent
            onCloseAutoFocus={(event) => {
              if (!focusResult.current) return;
              focusResult.current = false;
              const target = document.getElementById('debug-repair-result');
              if (target) {
                event.preventDefault();
                target.focus();
              }
            }}
          >
            <AlertDialogHeader>
              <AlertDialogTitle>{`Réparer le XML${NNBSP}?`}</AlertDialogTitle>
              <AlertDialogDescription>
                Le document de configuration va être corrigé automatiquement. La version actuelle est d'abord
                sauvegardée dans l'historique des versions{NNBSP}; si le document ne peut pas être réparé sans
                deviner, rien n'est modifié.
              </AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel disabled={repair.isPending}>Annuler</AlertDialogCancel>
              <AlertDialogAction
                disabled={repair.isPending}
                aria-busy={repair.isPending || undefined}
                onClick={(event) => {
                  // Stay open while the request runs; closed on its answer.
                  event.preventDefault();
                  run();
                }}
              >
                {repair.isPending ? 'Réparation en cours…' : 'Réparer'}
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </div>
    </ActionCard>
  );
}
