/**
 * The connector API's times (docs: design/connector-api.md « Times »): ISO 8601, with or without
 * an offset. Without one, the time is the wall clock of the installation's zone. Like time.ts,
 * this module imports no zod, so the browser may use it as it is.
 */
import { wallClockAsUtcMs, wallClockAt, zonedWallClockToUtc, type WallClock } from './time.ts';

/** An ISO 8601 date-time as written: the wall clock, and the offset in minutes when one is given. */
export interface TIsoDateTime {
  wall: WallClock;
  /** Minutes east of UTC (`+01:00` → 60, `Z` → 0); null when the text has no offset. */
  offsetMinutes: number | null;
}

/**
 * `YYYY-MM-DDTHH:mm[:ss[.fraction]][Z|±HH:mm|±HHmm|±HH]`. A space for the `T` and a lower-case
 * `t`/`z` are accepted (RFC 3339 allows them); the fraction may have 1 to 9 digits (.NET writes 7)
 * and is kept to the millisecond.
 */
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

/** Reads an ISO 8601 date-time; null when it is not one or names a day or time that cannot be. */
export function parseIsoDateTime(value: string): TIsoDateTime | null {
  const m = ISO_DATE_TIME.exec(value.trim());
  if (!m) return null;
  const wall: WallClock = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    second: Number(m[6] ?? 0),
    millisecond: m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0')),
  };
  if (wall.hour > 23 || wall.minute > 59 || wall.second > 59) return null;
  const check = new Date(wallClockAsUtcMs(wall));
  if (
    check.getUTCFullYear() !== wall.year ||
    check.getUTCMonth() !== wall.month - 1 ||
    check.getUTCDate() !== wall.day
  )
    return null;
  let offsetMinutes: number | null = null;
  if (m[8] !== undefined) offsetMinutes = 0;
  else if (m[9] !== undefined) {
    const hours = Number(m[10]);
    const minutes = Number(m[11] ?? 0);
    if (hours > 23 || minutes > 59) return null;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  return { wall, offsetMinutes };
}

/**
 * The UTC instant of a connector time: with an offset, as written; without one, the wall clock of
 * `zone` (a time in the spring gap moves forward by the gap, the repeated autumn hour is the first
 * one: zonedWallClockToUtc's rule, the dashboard's). Null when the text is not an ISO 8601
 * date-time.
 */
export function connectorTimeToUtc(value: string, zone: string): Date | null {
  const parsed = parseIsoDateTime(value);
  if (!parsed) return null;
  if (parsed.offsetMinutes === null) return zonedWallClockToUtc(parsed.wall, zone);
  return new Date(wallClockAsUtcMs(parsed.wall) - parsed.offsetMinutes * 60_000);
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/**
 * An instant written as the wall clock of `zone` with its offset, to the millisecond
 * (`2025-11-14T09:12:00.000+01:00`): what the API answers, readable both as the installation's
 * local time and as an exact instant.
 */
export function formatZonedIso(instant: Date, zone: string): string {
  const epochMs = instant.getTime();
  const w = wallClockAt(epochMs, zone);
  const offset = Math.round((wallClockAsUtcMs(w) - epochMs) / 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return (
    `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}` +
    `.${pad(w.millisecond, 3)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}
