import type { ReactNode } from 'react';
import {
  CalendarClock,
  Database,
  ExternalLink,
  Globe,
  Headset,
  History,
  Info,
  LifeBuoy,
  RefreshCw,
  UserRound,
  Zap,
} from 'lucide-react';
import type { TDashboardSource, TDashboardView, TSyncType } from '@synchro/contracts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { LoadingState } from '../../components/ui/spinner.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { errorDetail } from '../../lib/api-client.ts';
import { cn } from '../../lib/cn.ts';
import {
  NNBSP,
  formatDateTimeInZone,
  formatNumber,
  formatPlanningCounts,
  formatUtcOffset,
} from '../../lib/format.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { useDashboard, useSyncAutomate } from './dashboard-api.ts';
import { SYNC_ERROR_TITLE, SYNC_RUNNING_LABEL, SYNC_TOAST_TITLE, WARNINGS } from './dashboard-messages.ts';
import { SUPPORT_LINKS, type SupportLink } from './support-links.ts';
import { WarningHint } from './warning-hint.tsx';

const NOT_AVAILABLE = 'NC';

/** One read-only field: label, value and its warnings. */
function Field({
  label,
  children,
  warning,
  tone,
}: {
  label: string;
  children: ReactNode;
  warning?: ReactNode;
  tone?: 'warning' | 'destructive';
}) {
  return (
    <div className="grid gap-1 py-3 sm:grid-cols-[minmax(0,13rem)_minmax(0,1fr)] sm:gap-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd
        className={cn(
          'flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-sm font-medium text-foreground',
          tone === 'warning' && 'text-warning-soft-foreground',
          tone === 'destructive' && 'text-destructive',
        )}
      >
        {children}
        {warning}
      </dd>
    </div>
  );
}

function FieldList({ children }: { children: ReactNode }) {
  return <dl className="divide-y divide-border">{children}</dl>;
}

function SectionCard({
  title,
  description,
  icon,
  children,
  className,
}: {
  title: string;
  description?: string;
  icon: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <Card className={className}>
      <CardHeader className="flex-row items-start gap-3">
        <div className="grid size-9 shrink-0 place-content-center rounded-md bg-primary-soft text-primary [&_svg]:size-[1.125rem]">
          {icon}
        </div>
        <div className="grid gap-0.5">
          <CardTitle>{title}</CardTitle>
          {description ? <CardDescription>{description}</CardDescription> : null}
        </div>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

function AutomateValue({ automate }: { automate: TDashboardView['automate'] }) {
  switch (automate.state) {
    case 'installed':
      return (
        <>
          <span>{automate.label || 'Installé'}</span>
          <Badge variant="success">Installé</Badge>
        </>
      );
    case 'not-installed':
      return <Badge variant="neutral">Non installé</Badge>;
    case 'update-required':
      return (
        <>
          {automate.label ? <span>{automate.label}</span> : null}
          <Badge variant="warning">Mise à jour requise</Badge>
          <WarningHint message={WARNINGS.automateUpdate} />
        </>
      );
    default:
      return <span className="text-muted-foreground">Non communiqué</span>;
  }
}

function SourceState({ source }: { source: TDashboardSource }) {
  const label = source.statusLabel || (source.failed ? 'Connexion échouée' : 'État non communiqué');
  return (
    <li className="flex items-center gap-2 py-2.5 text-sm">
      <span
        aria-hidden="true"
        className={cn(
          'size-2.5 shrink-0 rounded-full',
          source.failed ? 'bg-destructive' : source.status === null ? 'bg-[#9aa7b5]' : 'bg-success',
        )}
      />
      <span className={cn('min-w-0 font-medium', source.failed ? 'text-destructive' : 'text-foreground')}>
        Cnx {source.position} {label}
      </span>
      {source.provider ? (
        <span className="truncate text-xs text-muted-foreground max-sm:hidden">({source.provider})</span>
      ) : null}
      {source.failed ? <WarningHint message={WARNINGS.connectionFailed} tone="destructive" /> : null}
    </li>
  );
}

/** "N Complètes / N Incrémentales / N Importations", each part kept on one line. */
function PlanningCounts({ counts }: { counts: TDashboardView['planningCounts'] }) {
  const parts = formatPlanningCounts(counts).split(' / ');
  // A line may break after a slash, never before one nor inside a count.
  return (
    <span>
      {parts.map((part, index) => (
        <span key={part}>
          {index > 0 ? ' ' : null}
          <span className="whitespace-nowrap">{index < parts.length - 1 ? `${part} /` : part}</span>
        </span>
      ))}
    </span>
  );
}

const SYNC_BUTTONS: readonly { type: TSyncType; label: string; hint: string }[] = [
  { type: 'C', label: 'Complète', hint: 'Toutes les données' },
  { type: 'R', label: 'Incrémentale', hint: 'Les modifications depuis la dernière synchronisation' },
  { type: 'I', label: 'Import des saisies', hint: 'Les saisies des terminaux vers votre ERP' },
];

function SyncActions() {
  const sync = useSyncAutomate();
  const running = sync.isPending ? sync.variables : null;

  const launch = (type: TSyncType) => {
    sync.mutate(type, {
      onSuccess: (result) =>
        toast({
          title: SYNC_TOAST_TITLE,
          description: result.retInfo,
          variant: result.retSync === 1 ? 'default' : 'destructive',
        }),
      onError: (error) =>
        toast({
          title: SYNC_ERROR_TITLE,
          description: errorDetail(error, 'La demande de synchronisation a échoué.'),
          variant: 'destructive',
        }),
    });
  };

  return (
    <Card className="border-primary/25 bg-gradient-to-br from-card to-primary-soft/60">
      <div className="flex flex-col gap-5 p-5 sm:p-6">
        <div className="flex items-start gap-3">
          <div className="grid size-9 shrink-0 place-content-center rounded-md bg-primary text-primary-foreground [&_svg]:size-[1.125rem]">
            <Zap aria-hidden="true" />
          </div>
          <div className="grid gap-0.5">
            <CardTitle>Lancer une synchronisation</CardTitle>
            <CardDescription>
              La demande est transmise au service automate installé sur votre serveur.
            </CardDescription>
          </div>
        </div>
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
    </Card>
  );
}

const SUPPORT_ICONS: Record<SupportLink['key'], ReactNode> = {
  remote: <Headset aria-hidden="true" />,
  support: <LifeBuoy aria-hidden="true" />,
  customer: <UserRound aria-hidden="true" />,
  editor: <Globe aria-hidden="true" />,
};

function SupportCard() {
  return (
    <SectionCard
      title="Assistance"
      description={`Besoin d'aide${NNBSP}? Nos équipes vous accompagnent.`}
      icon={<LifeBuoy aria-hidden="true" />}
    >
      <ul className="grid gap-2 sm:grid-cols-2 xl:grid-cols-1">
        {SUPPORT_LINKS.map((link) => (
          <li key={link.key}>
            <a
              href={link.href}
              target="_blank"
              rel="noopener noreferrer"
              className="group flex h-full items-start gap-3 rounded-md border border-border px-3 py-2.5 transition-colors hover:border-primary/40 hover:bg-primary-soft/50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
            >
              <span className="mt-0.5 text-primary [&_svg]:size-[1.125rem]">{SUPPORT_ICONS[link.key]}</span>
              <span className="grid min-w-0 gap-0.5">
                <span className="flex items-center gap-1.5 text-sm font-medium text-foreground">
                  {link.label}
                  <ExternalLink aria-hidden="true" className="size-3.5 text-muted-foreground" />
                  <span className="sr-only">(nouvel onglet)</span>
                </span>
                <span className="text-xs text-muted-foreground">{link.description}</span>
              </span>
            </a>
          </li>
        ))}
      </ul>
    </SectionCard>
  );
}

export function DashboardView({ view }: { view: TDashboardView }) {
  const zone = view.displayTimeZone.zone;
  const at = (iso: string | null) => (iso ? formatDateTimeInZone(iso, zone) : null);
  const lastSync = view.lastSync;
  const lastSyncAt = at(lastSync.at);
  const configAt = at(view.configUpdatedAt);

  return (
    <>
      <PageHeader
        title="Général"
        description={
          <>
            État de votre installation et de la dernière synchronisation. Heures affichées dans le fuseau{' '}
            {zone} ({formatUtcOffset(view.displayTimeZone.offsetMinutes)}).
          </>
        }
      />
      <div className="grid gap-6 xl:grid-cols-12">
        <div className="xl:col-span-12">
          <SyncActions />
        </div>
        <div className="grid content-start gap-6 xl:col-span-7">
          <SectionCard title="Installation" icon={<Info aria-hidden="true" />}>
            <FieldList>
              <Field label="ID de synchronisation">
                <span className="font-mono">{view.syncId}</span>
              </Field>
              <Field label="Logiciel à synchroniser">{view.softwareName}</Field>
              <Field label="Licence Premium">
                <Badge variant={view.premium ? 'success' : 'neutral'}>{view.premium ? 'OUI' : 'NON'}</Badge>
              </Field>
              <Field label="Version du connecteur">{view.connectorVersion ?? NOT_AVAILABLE}</Field>
              <Field label="Service automate installé">
                <AutomateValue automate={view.automate} />
              </Field>
              <Field label="Date de configuration">{configAt ?? NOT_AVAILABLE}</Field>
            </FieldList>
          </SectionCard>
          <SectionCard title="Dernière synchronisation" icon={<History aria-hidden="true" />}>
            <FieldList>
              <Field
                label="Date"
                tone={lastSync.stale ? 'warning' : undefined}
                warning={
                  lastSync.stale ? (
                    <span className="inline-flex items-center gap-1">
                      <Badge variant="warning">Synchronisation requise</Badge>
                      <WarningHint message={WARNINGS.stale} />
                    </span>
                  ) : null
                }
              >
                {lastSyncAt ?? 'Aucune synchronisation'}
              </Field>
              <Field label="Type">{lastSync.type ?? NOT_AVAILABLE}</Field>
              <Field
                label="Durée totale"
                tone={lastSync.durationAlert ? 'warning' : undefined}
                warning={lastSync.durationAlert ? <WarningHint message={WARNINGS.duration} /> : null}
              >
                {lastSync.duration ?? NOT_AVAILABLE}
              </Field>
              <Field label="Nombre d'enregistrements">
                {lastSync.records === null ? NOT_AVAILABLE : formatNumber(lastSync.records)}
              </Field>
              <Field label="Vitesse de lecture/écriture">
                {lastSync.speed === null
                  ? NOT_AVAILABLE
                  : `${formatNumber(lastSync.speed)} enregistrements/minute`}
              </Field>
              <Field
                label="Volume de données"
                tone={lastSync.volumeAlert ? 'warning' : undefined}
                warning={lastSync.volumeAlert ? <WarningHint message={WARNINGS.volume} /> : null}
              >
                {lastSync.volume ?? NOT_AVAILABLE}
              </Field>
            </FieldList>
          </SectionCard>
        </div>
        <div className="grid content-start gap-6 xl:col-span-5">
          <SectionCard
            title="Connexions aux bases"
            description="État relevé par le connecteur"
            icon={<Database aria-hidden="true" />}
          >
            {view.sources.length ? (
              <ul className="divide-y divide-border" aria-label="État des connexions">
                {view.sources.map((source) => (
                  <SourceState key={source.position} source={source} />
                ))}
              </ul>
            ) : (
              <p className="py-2 text-sm text-muted-foreground">Aucune base de données configurée.</p>
            )}
          </SectionCard>
          <SectionCard title="Terminaux et planification" icon={<CalendarClock aria-hidden="true" />}>
            <FieldList>
              <Field label="Terminaux autorisés">
                {view.terminals.authorised === null ? NOT_AVAILABLE : formatNumber(view.terminals.authorised)}
              </Field>
              <Field label="Terminaux déclarés">{formatNumber(view.terminals.declared)}</Field>
              <Field label="Planifications">
                <PlanningCounts counts={view.planningCounts} />
              </Field>
              <Field label="Clés API Google restantes">{view.googleKeysRemaining}</Field>
            </FieldList>
          </SectionCard>
          <SupportCard />
        </div>
      </div>
    </>
  );
}

export default function DashboardPage() {
  usePageTitle('Général');
  const query = useDashboard();

  if (query.isPending) return <LoadingState label="Chargement du tableau de bord…" />;
  if (query.isError) {
    return (
      <>
        <PageHeader title="Général" />
        <EmptyState title="Impossible de charger le tableau de bord" icon={<Database aria-hidden="true" />}>
          <p>{errorDetail(query.error, 'Erreur inconnue')}</p>
          <Button variant="outline" className="mt-4" onClick={() => void query.refetch()}>
            Réessayer
          </Button>
        </EmptyState>
      </>
    );
  }
  return <DashboardView view={query.data} />;
}
