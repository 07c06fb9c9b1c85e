/**
 * Wall-clock time in an IANA zone, with `Intl` only (one cached formatter per zone). Used by the
 * server (connector timestamps, dashboard) and by the browser (times shown in the installation's
 * zone), which imports it at runtime as `@synchro/contracts/time`: this module must import nothing,
 * least of all zod (docs/web.md).
 */

/** A wall-clock reading without zone. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

export function isValidTimeZone(zone: string): boolean {
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock shown in `zone` at the instant `epochMs` (milliseconds kept). */
export function wallClockAt(epochMs: number, zone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const p of formatterFor(zone).formatToParts(new Date(epochMs))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 0,
    day: parts.day ?? 0,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
    millisecond: ((epochMs % 1000) + 1000) % 1000,
  };
}

/** The instant at which a UTC clock reads `w`, in milliseconds. */
export function wallClockAsUtcMs(w: WallClock): number {
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second, w.millisecond);
}

/** Offset of `zone` from UTC at an instant, in minutes (Paris in winter: 60). */
export function zoneOffsetMinutes(instant: Date | number, zone: string): number {
  const epochMs = typeof instant === 'number' ? instant : instant.getTime();
  return Math.round((wallClockAsUtcMs(wallClockAt(epochMs, zone)) - epochMs) / 60_000);
}

/**
 * The instant at which the clocks of `zone` read `wall`. Around a change of offset it follows
 * the usual ("compatible") rule: a reading that happens twice (autumn) is the first one; a
 * reading that never happens (spring gap) is moved forward by the length of the gap.
 */
export function zonedWallClockToUtc(wall: WallClock, zone: string): Date {
  const local = wallClockAsUtcMs(wall);
  const DAY = 86_400_000;
  // The offsets in force a day before and a day after bracket any single change of offset.
  const offsets = [...new Set([zoneOffsetMinutes(local - DAY, zone), zoneOffsetMinutes(local + DAY, zone)])];
  const matches = offsets
    .map((offset) => local - offset * 60_000)
    .filter((instant) => wallClockAsUtcMs(wallClockAt(instant, zone)) === local)
    .sort((a, b) => a - b);
  if (matches[0] !== undefined) return new Date(matches[0]);
  // In a gap: read it with the offset before the change, which lands after the gap.
  return new Date(local - zoneOffsetMinutes(local - DAY, zone) * 60_000);
}

/** True when two instants fall on the same calendar day in `zone`. */
export function sameDayIn(zone: string, a: Date, b: Date): boolean {
  const x = wallClockAt(a.getTime(), zone);
  const y = wallClockAt(b.getTime(), zone);
  return x.year === y.year && x.month === y.month && x.day === y.day;
}
