import type { TAutomateState, TDashboardSource, TDashboardView } from '@synchro/contracts';
import {
  countPlannings,
  readInfo,
  readLastSync,
  readPlanifications,
  readSources,
  readTerminals,
  type ConfigDocument,
} from '@synchro/config-xml';
import type { StorageUse } from '../../domain/storage.ts';
import { automateServiceView, type AutomateRegistration } from '../../domain/automate-registrations.ts';
import { derive, type CachedConfig } from '../../domain/config-cache.ts';
import { documentOr422, readOr422 } from '../../domain/config-reading.ts';
import { connectorTimestampToIso, sameDayIn, zoneOffsetMinutes } from '../../time/zoned.ts';
import type { Installation } from '../../domain/installations.ts';
import { installationZone } from '../../domain/time-zone.ts';
import type { AutomateAddressPolicy } from '../../network/automate-address.ts';

/** Shown as 'Synchro pour votre ERP' when the licence names no software. */
export const DEFAULT_SOFTWARE_NAME = 'votre ERP';
export const STALE_AFTER_MS = 72 * 60 * 60 * 1000;

/** Second `;` field of the first `|` entry of Tablettes ('1;EBP GesCom Open Line;CODE|...'). */
export function softwareNameOf(tablettes: string): string {
  const name = tablettes.split('|')[0]?.split(';')[1]?.trim();
  return name ? name : DEFAULT_SOFTWARE_NAME;
}

/** First `;` field of Options: the number of authorised terminals; null when not a number. */
export function authorisedTerminalsOf(options: string): number | null {
  const first = options.split(';')[0]?.trim() ?? '';
  return /^\d+$/.test(first) ? Number(first) : null;
}

export function automateStateOf(install: number | null): TAutomateState {
  if (install === 1) return 'installed';
  if (install === 0) return 'not-installed';
  if (install === -1) return 'update-required';
  return 'unknown';
}

/** Older than 72 hours and not from today in the display zone (docs/spec-notes.md, Dashboard). */
export function isStale(lastSyncIso: string | null, now: Date, zone: string): boolean {
  if (!lastSyncIso) return false;
  const at = new Date(lastSyncIso);
  return now.getTime() - at.getTime() > STALE_AFTER_MS && !sameDayIn(zone, at, now);
}

function dashboardSources(doc: ConfigDocument): TDashboardSource[] {
  return (
    readSources(doc)
      .sources.map((s, i) => ({
        position: i + 1,
        provider: s.Provider,
        status: s.Status,
        statusLabel: s.StatusLibelle.trim(),
        failed: s.Status === 0,
      }))
      // The padding blocks (no provider, no status) are not connections.
      .filter((s) => s.provider !== '' || s.status !== null)
  );
}

/**
 * What the dashboard reads from a configuration version, the same for every request: read once
 * per cached version (a reader that fails is not cached and fails again with the same 422).
 * The readers run in the order of the original per-request code, so the first fault reported
 * is the same.
 */
interface DashboardFacts {
  info: ReturnType<typeof readInfo>;
  lastSync: ReturnType<typeof readLastSync>;
  configuredZone: string;
  sources: TDashboardSource[];
  declaredTerminals: number;
  planningCounts: TDashboardView['planningCounts'];
}

function dashboardFacts(config: CachedConfig): DashboardFacts {
  const doc = documentOr422(config);
  return derive(config, 'dashboard-facts', () =>
    readOr422(() => ({
      info: readInfo(doc),
      lastSync: readLastSync(doc),
      configuredZone: readPlanifications(doc).timeZone,
      sources: dashboardSources(doc),
      declaredTerminals: readTerminals(doc).terminals.filter((t) => t.declared).length,
      planningCounts: countPlannings(doc),
    })),
  );
}

/** The two connector timestamps of a version as UTC instants in a zone (pure: cached per zone). */
function dashboardInstants(config: CachedConfig, facts: DashboardFacts, zone: string) {
  return derive(config, `dashboard-instants:${zone}`, () => ({
    lastSyncAt: connectorTimestampToIso(facts.lastSync.dateHeure, zone),
    configUpdatedAt: connectorTimestampToIso(facts.info.configUpdatedAt, zone),
  }));
}

export function buildDashboard(
  installation: Installation,
  config: CachedConfig,
  registration: AutomateRegistration | null,
  storage: StorageUse,
  now: Date,
  addresses: AutomateAddressPolicy,
): Omit<TDashboardView, 'supportLinks'> {
  const facts = dashboardFacts(config);
  const { info, lastSync, sources, declaredTerminals, planningCounts } = facts;
  const zone = installationZone(facts.configuredZone, installation.timeZone);
  const { lastSyncAt, configUpdatedAt } = dashboardInstants(config, facts, zone);
  return {
    syncId: installation.syncId,
    softwareName: softwareNameOf(installation.software),
    premium: installation.premium,
    connectorVersion: info.connectorVersion,
    automate: { state: automateStateOf(info.automateInstall), label: info.automateLabel.trim() || null },
    automateService: automateServiceView(
      registration,
      now,
      ordersRefusedTo(registration, installation, addresses),
    ),
    configUpdatedAt,
    sources,
    lastSync: {
      at: lastSyncAt,
      type: lastSync.type,
      duration: lastSync.duration,
      durationAlert: lastSync.durationAlert,
      records: lastSync.records,
      speed: lastSync.speed,
      volume: lastSync.volume,
      volumeAlert: lastSync.volumeAlert,
      stale: isStale(lastSyncAt, now, zone),
    },
    terminals: {
      authorised: authorisedTerminalsOf(installation.options),
      declared: declaredTerminals,
    },
    planningCounts,
    googleKeysRemaining: 'NC',
    displayTimeZone: { zone, offsetMinutes: zoneOffsetMinutes(now.getTime(), zone) },
    configVersion: config.version,
    storage,
  };
}

/** The policy's reason when it refuses orders to the registered address, else null. */
function ordersRefusedTo(
  registration: AutomateRegistration | null,
  installation: Installation,
  addresses: AutomateAddressPolicy,
): string | null {
  if (!registration) return null;
  const check = addresses.check(registration.ip, installation.syncId);
  return check.allowed ? null : check.message;
}
