import { CalendarClock, Database, History, Info } from 'lucide-react';
import type { TDashboardView } from '@synchro/contracts';
import { Badge } from '../../components/ui/badge.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { SectionCard } from '../../components/ui/section-card.tsx';
import { formatDateTimeInZone, formatNumber, formatUtcOffset } from '../../lib/format.ts';
import { WARNINGS } from './dashboard-messages.ts';
import { Field, FieldList, NOT_AVAILABLE } from './dashboard-fields.tsx';
import { ActivityCards } from './activity-card.tsx';
import { AutomateValue, PlanningCounts, SourceState } from './dashboard-values.tsx';
import { StorageWarning } from './storage-warning.tsx';
import { SupportCard } from './support-card.tsx';
import { SyncActions } from './sync-actions.tsx';
import { WarningHint } from './warning-hint.tsx';

/** The Général screen once its view is read. */
export function DashboardView({ view, fetchedAt }: { view: TDashboardView; fetchedAt: number }) {
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
        <div className="grid gap-4 xl:col-span-12">
          <StorageWarning storage={view.storage} />
          <SyncActions view={view} fetchedAt={fetchedAt} />
        </div>
        <div className="grid min-w-0 content-start gap-6 xl:col-span-12">
          <ActivityCards />
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
          <SupportCard links={view.supportLinks} />
        </div>
      </div>
    </>
  );
}
