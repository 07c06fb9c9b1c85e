import { useEffect, useState, type ReactNode } from 'react';
import { Link2, Link2Off } from 'lucide-react';
import {
  DRIVE_CALLBACK_MESSAGES,
  DRIVE_DISCONNECT_MESSAGES,
  type TDriveCallbackCode,
} from '@synchro/contracts';
import { ConfirmDialog } from '../../components/ui/alert-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { errorDetail } from '../../lib/api-client.ts';
import { NNBSP } from '../../lib/format.ts';
import { useDriveConnect, useDriveDisconnect, useDriveStatus } from './drive-api.ts';
import { CHOOSE_DRIVE, DRIVE_NOT_CONFIGURED, driveLinkView, providerOf } from './drive-link-view.ts';

/** The outcome of the provider's redirect (`/complement?drive=<code>`), said once, then removed from the address. */
function useCallbackOutcome() {
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const code = params.get('drive');
    if (code === null) return;
    params.delete('drive');
    const rest = params.toString();
    window.history.replaceState(
      window.history.state,
      '',
      `${window.location.pathname}${rest ? `?${rest}` : ''}`,
    );
    if (!(code in DRIVE_CALLBACK_MESSAGES)) return;
    const connected = code === 'connected';
    toast({
      title: 'Drive pour la GED',
      description: DRIVE_CALLBACK_MESSAGES[code as TDriveCallbackCode],
      variant: connected ? 'default' : 'destructive',
    });
  }, []);
}

/** What « Déconnecter » asks before it acts: connecting again takes the provider's consent again. */
export const DISCONNECT_CONSEQUENCES =
  'Le connecteur ne pourra plus déposer de documents sur ce Drive tant qu’il n’est pas connecté de nouveau (avec l’accord du compte, chez le fournisseur). La console retire aussi son autorisation chez le fournisseur, quand il le permet.';

/**
 * « Connecter » / « Déconnecter » beside the drive select, and the line under it that says the
 * link's state (docs/mail.md, Drive; what is shown when: drive-link-view.ts). Connecting leaves
 * the page for the provider's: the edits of the screen are saved first.
 */
export function useDriveControls(driveType: string, dirty: boolean): { aside: ReactNode; hint: ReactNode } {
  useCallbackOutcome();
  const status = useDriveStatus();
  const connect = useDriveConnect();
  const disconnect = useDriveDisconnect();
  const [confirming, setConfirming] = useState(false);
  const provider = providerOf(driveType);
  const configured = provider !== null && status.data?.configured[provider] === true;
  const view = driveLinkView(driveType, status.data);

  const fail = (description: string) =>
    toast({ title: 'Drive pour la GED', description, variant: 'destructive' });

  const onConnect = () => {
    if (provider === null) return fail(CHOOSE_DRIVE);
    if (!configured) return fail(DRIVE_NOT_CONFIGURED);
    if (dirty)
      return fail('Validez d’abord vos modifications\u00a0: la connexion au Drive quitte cette page.');
    connect.mutate(provider, {
      onSuccess: ({ authorizationUrl }) => window.location.assign(authorizationUrl),
      onError: (error) => fail(errorDetail(error, 'La connexion au Drive n’a pas pu commencer.')),
    });
  };

  const onDisconnect = () => {
    setConfirming(false);
    disconnect.mutate(undefined, {
      onSuccess: ({ grantKept }) =>
        toast({
          title: 'Drive pour la GED',
          description: DRIVE_DISCONNECT_MESSAGES[grantKept ? 'grantKept' : 'revoked'],
          variant: grantKept ? 'destructive' : 'default',
        }),
      onError: (error) => fail(errorDetail(error, 'La déconnexion du Drive a échoué.')),
    });
  };

  const hint: ReactNode =
    view.tone === 'connected' ? <span className="text-success-soft-foreground">{view.text}</span> : view.text;

  // The two buttons wrap together, under the select when the column is narrow.
  const aside = (
    <div className="flex flex-wrap gap-2">
      {view.connect ? (
        <Button
          variant="outline"
          busy={connect.isPending || connect.isSuccess}
          aria-disabled={provider === null || !configured ? 'true' : undefined}
          className={provider === null || !configured ? 'opacity-70' : undefined}
          onClick={onConnect}
        >
          <Link2 aria-hidden="true" />
          Connecter
        </Button>
      ) : null}
      {view.disconnect ? (
        <Button variant="outline" busy={disconnect.isPending} onClick={() => setConfirming(true)}>
          <Link2Off aria-hidden="true" />
          Déconnecter
        </Button>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={`Déconnecter le Drive${NNBSP}?`}
        description={DISCONNECT_CONSEQUENCES}
        cancelLabel="Annuler"
        confirmLabel="Déconnecter"
        onCancel={() => setConfirming(false)}
        onConfirm={onDisconnect}
      />
    </div>
  );
  return { aside, hint };
}
