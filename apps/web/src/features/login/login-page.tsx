import { useId, useState, type FormEvent } from 'react';
import { useLocation, useSearch } from 'wouter';
import { CalendarClock, RefreshCw, TabletSmartphone } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { FieldMessage, Label } from '../../components/ui/label.tsx';
import { Logo } from '../../components/ui/logo.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { errorDetail } from '../../lib/api-client.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { useAuth } from '../../state/auth/auth-context.ts';
import { SYNC_ID_MESSAGE, isValidSyncId, normalizeSyncIdInput } from '@synchro/contracts/sync-id';

export const APP_VERSION_LABEL = 'Version 6.19.4';
export const SYNC_ID_REQUIRED = "L'ID de synchronisation est obligatoire";
export const CLIENT_ID_REQUIRED = "L'ID Client est obligatoire";
export const LOGIN_ERROR_TITLE = 'Erreur de connexion';
export const LOGIN_ERROR_FALLBACK = 'Identifiants incorrects';

function syncIdError(value: string, submitted: boolean): string | null {
  if (!value) return submitted ? SYNC_ID_REQUIRED : null;
  return isValidSyncId(value.toUpperCase()) ? null : SYNC_ID_MESSAGE;
}

export default function LoginPage() {
  usePageTitle('Connexion');
  const search = useSearch();
  const [, navigate] = useLocation();
  const { login, isLoggingIn } = useAuth();
  // Prefill from ?syncId=&clientId= (docs/spec-notes.md, Web: Session and sign-in); the prefilled id is checked
  // like a typed one.
  const [syncId, setSyncId] = useState(() => new URLSearchParams(search).get('syncId') ?? '');
  const [clientId, setClientId] = useState(() => new URLSearchParams(search).get('clientId') ?? '');
  const [submitted, setSubmitted] = useState(false);
  const syncIdFieldId = useId();
  const clientIdFieldId = useId();

  const syncIdMessage = syncIdError(syncId, submitted);
  const clientIdMessage = submitted && !clientId ? CLIENT_ID_REQUIRED : null;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    const username = syncId.toUpperCase();
    if (syncIdError(username, true) || !clientId) return;
    setSyncId(username);
    try {
      await login({ username, password: clientId });
      navigate('/');
    } catch (error) {
      toast({
        title: LOGIN_ERROR_TITLE,
        description: errorDetail(error, LOGIN_ERROR_FALLBACK),
        variant: 'destructive',
      });
    }
  };

  return (
    <div className="grid min-h-svh lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
      <aside className="relative hidden overflow-hidden bg-sidebar px-12 py-14 text-sidebar-foreground lg:flex lg:flex-col">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -top-24 -right-24 size-96 rounded-full bg-[radial-gradient(circle,rgba(94,234,212,0.18),transparent_65%)]"
        />
        <div className="flex items-center gap-3">
          <Logo className="size-10" />
          <span className="text-lg font-semibold text-white">Synchro</span>
        </div>
        <div className="mt-auto mb-auto max-w-md">
          <p className="text-3xl leading-tight font-semibold text-white">
            Votre ERP et vos terminaux mobiles, toujours en phase.
          </p>
          <ul className="mt-10 grid gap-6 text-[0.9375rem]">
            <li className="flex gap-4">
              <RefreshCw aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-[#5eead4]" />
              <span>Suivez l'état du connecteur et lancez une synchronisation en un clic.</span>
            </li>
            <li className="flex gap-4">
              <TabletSmartphone aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-[#5eead4]" />
              <span>Réglez les données, les droits et les filtres de chaque terminal.</span>
            </li>
            <li className="flex gap-4">
              <CalendarClock aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-[#5eead4]" />
              <span>Planifiez les synchronisations et retrouvez l'historique des imports.</span>
            </li>
          </ul>
        </div>
      </aside>

      <main className="flex items-center justify-center px-4 py-10 sm:px-8">
        <Card className="w-full max-w-[26rem] p-7 sm:p-9">
          <div className="mb-7 flex flex-col items-center text-center">
            <Logo className="mb-4 size-12" />
            <h1 className="text-2xl font-semibold tracking-tight">Synchro</h1>
            <p className="mt-1 text-xs font-medium text-muted-foreground">{APP_VERSION_LABEL}</p>
            <p className="mt-4 text-sm text-muted-foreground">
              Veuillez entrer vos identifiants de connexion
            </p>
          </div>

          <form noValidate onSubmit={onSubmit} className="grid gap-5" aria-label="Connexion">
            <div className="grid gap-2">
              <Label htmlFor={syncIdFieldId}>ID de synchronisation</Label>
              <Input
                id={syncIdFieldId}
                name="syncId"
                value={syncId}
                onChange={(event) => setSyncId(normalizeSyncIdInput(event.target.value))}
                placeholder="Entrez votre ID synchro"
                autoComplete="username"
                autoCapitalize="characters"
                spellCheck={false}
                aria-required="true"
                aria-invalid={syncIdMessage ? true : undefined}
                aria-describedby={syncIdMessage ? `${syncIdFieldId}-message` : undefined}
                className="font-mono tracking-wide uppercase placeholder:font-sans placeholder:tracking-normal placeholder:normal-case"
              />
              {syncIdMessage ? (
                <FieldMessage id={`${syncIdFieldId}-message`} role="alert">
                  {syncIdMessage}
                </FieldMessage>
              ) : null}
            </div>

            <div className="grid gap-2">
              <Label htmlFor={clientIdFieldId}>ID Client</Label>
              <Input
                id={clientIdFieldId}
                name="clientId"
                type="password"
                value={clientId}
                onChange={(event) => setClientId(event.target.value)}
                placeholder="Entrez votre ID Client"
                autoComplete="current-password"
                required
                aria-required="true"
                aria-invalid={clientIdMessage ? true : undefined}
                aria-describedby={clientIdMessage ? `${clientIdFieldId}-message` : undefined}
              />
              {clientIdMessage ? (
                <FieldMessage id={`${clientIdFieldId}-message`} role="alert">
                  {clientIdMessage}
                </FieldMessage>
              ) : null}
            </div>

            <Button type="submit" size="lg" className="mt-1 w-full" busy={isLoggingIn}>
              Se connecter
            </Button>
          </form>
        </Card>
      </main>
    </div>
  );
}
