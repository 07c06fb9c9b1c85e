/** French formatting helpers (style-examples.md: fr-FR numbers, dd/MM/yyyy HH:mm, offsets shown). */

import type { TPlanningCounts } from '@synchro/contracts';
import { isValidTimeZone, wallClockAt, zoneOffsetMinutes } from '@synchro/contracts/time';

export { zoneOffsetMinutes };

/** Non-breaking space, before `:` (and inside guillemets). */
export const NBSP = '\u00a0';
/** Narrow non-breaking space, before `; ! ?`. */
export const NNBSP = '\u202f';

const numberFormat = new Intl.NumberFormat('fr-FR');

/** 1838 → "1 838" (thousands grouped with U+202F). */
export function formatNumber(value: number): string {
  return numberFormat.format(value);
}

/** French plural: 0 and 1 take the singular. `pluralize(2, 'Complète', 'Complètes')` → "2 Complètes". */
export function pluralize(count: number, singular: string, plural: string): string {
  return `${formatNumber(count)} ${Math.abs(count) < 2 ? singular : plural}`;
}

/** "N Complètes / N Incrémentales / N Importations" with French singular/plural. */
export function formatPlanningCounts(counts: TPlanningCounts): string {
  return [
    pluralize(counts.C, 'Complète', 'Complètes'),
    pluralize(counts.R, 'Incrémentale', 'Incrémentales'),
    pluralize(counts.I, 'Importation', 'Importations'),
  ].join(' / ');
}

/** Minutes east of UTC → "UTC+1", "UTC-3:30", "UTC" for zero. */
export function formatUtcOffset(offsetMinutes: number): string {
  if (offsetMinutes === 0) return 'UTC';
  const sign = offsetMinutes > 0 ? '+' : '-';
  const abs = Math.abs(offsetMinutes);
  const hours = Math.floor(abs / 60);
  const minutes = abs % 60;
  return `UTC${sign}${hours}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * An ISO instant shown as wall-clock time of `zone`: "09/03/2025 08:09" ("09/03/2025 08:09:27"
 * `withSeconds`), followed by the zone's offset at that instant when `withOffset`
 * ("09/03/2025 08:09 (UTC+1)"). An unknown zone falls back to UTC; an unreadable value gives null.
 */
export function formatDateTimeInZone(
  iso: string,
  zone: string,
  withOffset = true,
  withSeconds = false,
): string | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const safeZone = isValidTimeZone(zone) ? zone : 'UTC';
  const w = wallClockAt(date.getTime(), safeZone);
  const seconds = withSeconds ? `:${pad(w.second)}` : '';
  const text = `${pad(w.day)}/${pad(w.month)}/${w.year} ${pad(w.hour)}:${pad(w.minute)}${seconds}`;
  return withOffset ? `${text} (${formatUtcOffset(zoneOffsetMinutes(date, safeZone))})` : text;
}

const oneDecimal = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 });

/** 512 o, 12,4 Ko, 22,5 Mo, 1,2 Go (French units, 1 Ko = 1 024 octets). */
export function formatByteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}${NBSP}o`;
  if (bytes < 1024 * 1024) return `${oneDecimal.format(bytes / 1024)}${NBSP}Ko`;
  if (bytes < 1024 * 1024 * 1024) return `${oneDecimal.format(bytes / (1024 * 1024))}${NBSP}Mo`;
  return `${oneDecimal.format(bytes / (1024 * 1024 * 1024))}${NBSP}Go`;
}
