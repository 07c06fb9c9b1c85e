/**
 * Times as the connector writes them: 17-digit `YYYYMMDDHHMMSSmmm` stamps and ISO 8601 readings
 * without offset, both in the installation's wall-clock zone (`Planifications/FuseauHoraire`).
 */
import { isValidTimeZone, wallClockAt } from '@synchro/contracts/time';

/** The zone the connector assumes when the configuration names none (connector-api.md). */
export const DEFAULT_ZONE = 'Europe/Paris';

export function zoneOrDefault(zone: string | null | undefined): string {
  const z = (zone ?? '').trim();
  return z !== '' && isValidTimeZone(z) ? z : DEFAULT_ZONE;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** `YYYYMMDDHHMMSSmmm` of the instant `epochMs` on the clocks of `zone`. */
export function connectorStamp(epochMs: number, zone: string): string {
  const w = wallClockAt(epochMs, zone);
  return `${pad(w.year, 4)}${pad(w.month)}${pad(w.day)}${pad(w.hour)}${pad(w.minute)}${pad(w.second)}${pad(w.millisecond, 3)}`;
}

/** `YYYY-MM-DDTHH:MM:SS` (no offset: the installation's wall clock, connector-api.md § Times). */
export function wallClockIso(epochMs: number, zone: string): string {
  const w = wallClockAt(epochMs, zone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
}

/** `YYYYMMDD` on the clocks of `zone`. */
export function wallClockDate(epochMs: number, zone: string): string {
  return connectorStamp(epochMs, zone).slice(0, 8);
}

/** A duration in seconds as `HH:MM:SS`. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}
