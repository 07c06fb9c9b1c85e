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
import type { CachedConfig } from '../../domain/config-cache.ts';
import { documentOr422, readOr422 } from '../../domain/connector-config.ts';
import { connectorTimestampToIso, isValidTimeZone, sameDayIn, zoneOffsetMinutes } from '../../time/zoned.ts';
import type { Installation } from '../installations/service.ts';

export const DEFAULT_TIME_ZONE = 'Europe/Paris';
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

/**
 * The zone of the connector's wall-clock timestamps and of the display: Planifications/
 * FuseauHoraire, else the installation's stored zone, else Europe/Paris.
 */
export function installationZone(configured: string, stored: string): string {
  for (const zone of [configured, stored]) if (zone && isValidTimeZone(zone)) return zone;
  return DEFAULT_TIME_ZONE;
}

/** Older than 72 hours and not from today in the display zone (spec §4). */
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

export function buildDashboard(installation: Installation, config: CachedConfig, now: Date): TDashboardView {
  const doc = documentOr422(config);
  return readOr422(() => {
    const info = readInfo(doc);
    const lastSync = readLastSync(doc);
    const zone = installationZone(readPlanifications(doc).timeZone, installation.timeZone);
    const lastSyncAt = connectorTimestampToIso(lastSync.dateHeure, zone);
    return {
      syncId: installation.syncId,
      softwareName: softwareNameOf(installation.software),
      premium: installation.premium,
      connectorVersion: info.connectorVersion,
      automate: { state: automateStateOf(info.automateInstall), label: info.automateLabel.trim() || null },
      configUpdatedAt: connectorTimestampToIso(info.configUpdatedAt, zone),
      sources: dashboardSources(doc),
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
        declared: readTerminals(doc).terminals.filter((t) => t.declared).length,
      },
      planningCounts: countPlannings(doc),
      googleKeysRemaining: 'NC',
      displayTimeZone: { zone, offsetMinutes: zoneOffsetMinutes(now.getTime(), zone) },
      configVersion: config.version,
    };
  });
}
