import { useState } from 'react';
import { Inbox, RefreshCw } from 'lucide-react';
import { MAIL_KIND_LABELS, MAIL_STATE_LABELS, type TMailState, type TOutboxMail } from '@synchro/contracts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { ErrorState } from '../../components/ui/error-state.tsx';
import { FormSection } from '../../components/ui/form.tsx';
import { LoadingState } from '../../components/ui/spinner.tsx';
import { errorDetail } from '../../lib/api-client.ts';
import { formatDateTimeInZone } from '../../lib/format.ts';
import { useOutbox, useOutboxMail } from './mail-api.ts';

const STATE_VARIANT: Record<TMailState, 'success' | 'destructive' | 'warning' | 'neutral' | 'primary'> = {
  sent: 'success',
  failed: 'destructive',
  unconfigured: 'warning',
  pending: 'primary',
  gathering: 'primary',
  sending: 'primary',
};

function MailState({ state }: { state: TMailState }) {
  return (
    <Badge variant={STATE_VARIANT[state]} className="whitespace-normal">
      {MAIL_STATE_LABELS[state]}
    </Badge>
  );
}

const when = (mail: TOutboxMail, zone: string) =>
  formatDateTimeInZone(mail.sentAt ?? mail.createdAt, zone, false) ?? '—';

const subjectOf = (mail: TOutboxMail) => mail.subject ?? 'Composé à l’envoi';

/**
 * One email as it was sent: its facts, the HTML in a sandboxed frame (no script runs in it: it is
 * only read, by the page and by accessibility checks), its text.
 */
function MailDialog({
  mail,
  zone,
  onClose,
}: {
  mail: TOutboxMail | null;
  zone: string;
  onClose: () => void;
}) {
  const detail = useOutboxMail(mail?.id ?? null);
  const shown = detail.data ?? mail;
  return (
    <Dialog open={mail !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>{shown ? subjectOf(shown) : 'Email'}</DialogTitle>
          <DialogDescription>{shown ? MAIL_KIND_LABELS[shown.kind] : ''}</DialogDescription>
        </DialogHeader>
        {shown ? (
          <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
            <dt className="text-muted-foreground">État</dt>
            <dd>
              <MailState state={shown.state} />
            </dd>
            <dt className="text-muted-foreground">Destinataires</dt>
            <dd className="min-w-0 break-all">{shown.recipients}</dd>
            <dt className="text-muted-foreground">Écrit le</dt>
            <dd>{formatDateTimeInZone(shown.createdAt, zone) ?? '—'}</dd>
            {shown.sentAt ? (
              <>
                <dt className="text-muted-foreground">Envoyé le</dt>
                <dd>{formatDateTimeInZone(shown.sentAt, zone)}</dd>
              </>
            ) : null}
            <dt className="text-muted-foreground">Tentatives</dt>
            <dd>{shown.attempts}</dd>
            {shown.lastError ? (
              <>
                <dt className="text-muted-foreground">Motif</dt>
                <dd className="min-w-0 break-words">{shown.lastError}</dd>
              </>
            ) : null}
          </dl>
        ) : null}
        {detail.isPending ? (
          <LoadingState label="Chargement de l’email…" className="min-h-32" />
        ) : detail.isError ? (
          <ErrorState
            compact
            title="Impossible de charger l’email"
            message={errorDetail(detail.error, 'Le serveur ne répond pas.')}
            retrying={detail.isFetching}
            onRetry={() => void detail.refetch()}
          />
        ) : detail.data?.html ? (
          <>
            <iframe
              title="Aperçu de l’email"
              sandbox="allow-same-origin"
              srcDoc={detail.data.html}
              className="h-[50vh] min-h-64 w-full rounded-md border border-border bg-white"
            />
            <details className="text-sm">
              <summary className="cursor-pointer font-medium">Version texte</summary>
              <pre className="mt-2 max-h-[40vh] overflow-auto rounded-md bg-muted/60 p-3 font-mono text-xs whitespace-pre-wrap">
                {detail.data.text}
              </pre>
            </details>
          </>
        ) : (
          <p className="text-sm text-muted-foreground">Le contenu sera composé au moment de l’envoi.</p>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** « Emails envoyés »: the installation's last emails with state, recipients, subject and reason. */
export function SentMails() {
  const outbox = useOutbox();
  const [open, setOpen] = useState<TOutboxMail | null>(null);
  const zone = outbox.data?.displayTimeZone.zone ?? 'Europe/Paris';
  const relay =
    outbox.data && !outbox.data.relayConfigured ? (
      <Badge variant="warning">Aucun serveur d’envoi configuré</Badge>
    ) : null;

  let body;
  if (outbox.isPending) body = <LoadingState label="Chargement des emails…" className="min-h-32" />;
  else if (outbox.isError)
    body = (
      <ErrorState
        compact
        title="Impossible de charger les emails"
        message={errorDetail(outbox.error, 'Le serveur ne répond pas.')}
        retrying={outbox.isFetching}
        onRetry={() => void outbox.refetch()}
      />
    );
  else if (outbox.data.mails.length === 0)
    body = <p className="text-sm text-muted-foreground">Aucun email pour l’instant.</p>;
  else
    body = (
      <ul
        className="grid divide-y divide-border rounded-md border border-border"
        aria-label="Derniers emails"
      >
        {outbox.data.mails.map((mail) => (
          <li
            key={mail.id}
            className="grid gap-x-4 gap-y-1.5 p-3 @2xl:grid-cols-[9.5rem_minmax(0,1fr)_auto] @2xl:items-center"
          >
            <span className="text-sm tabular-nums text-muted-foreground">{when(mail, zone)}</span>
            <span className="grid min-w-0 gap-0.5">
              <span className="line-clamp-2 text-sm font-medium break-words">{subjectOf(mail)}</span>
              <span className="truncate text-xs text-muted-foreground">
                {MAIL_KIND_LABELS[mail.kind]} · {mail.recipients}
              </span>
              {mail.lastError && mail.state !== 'unconfigured' ? (
                <span className="text-xs break-words text-destructive-soft-foreground">{mail.lastError}</span>
              ) : null}
            </span>
            <span className="flex flex-wrap items-center gap-2 @2xl:justify-end">
              <MailState state={mail.state} />
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Voir l’email ${subjectOf(mail)} du ${when(mail, zone)}`}
                onClick={() => setOpen(mail)}
              >
                Voir
              </Button>
            </span>
          </li>
        ))}
      </ul>
    );

  return (
    <FormSection
      title="Emails envoyés"
      description="Les 50 derniers emails de l’installation, tels qu’ils ont été envoyés."
      icon={<Inbox aria-hidden="true" />}
      status={
        <div className="flex flex-wrap items-center gap-2">
          {relay}
          <Button variant="outline" size="sm" busy={outbox.isFetching} onClick={() => void outbox.refetch()}>
            <RefreshCw aria-hidden="true" />
            Actualiser
          </Button>
        </div>
      }
      contentClassName="@xl:grid-cols-1"
    >
      {body}
      <MailDialog mail={open} zone={zone} onClose={() => setOpen(null)} />
    </FormSection>
  );
}
