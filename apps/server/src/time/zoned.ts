/** A wall-clock reading without zone: what the connector writes. */
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

const asUtcMs = (w: WallClock) =>
  Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second, w.millisecond);

/** Offset of `zone` from UTC at an instant, in minutes (Paris in winter: 60). */
export function zoneOffsetMinutes(epochMs: number, zone: string): number {
  return Math.round((asUtcMs(wallClockAt(epochMs, zone)) - epochMs) / 60_000);
}

/**
 * The instant at which the clocks of `zone` read `wall`. Around a change of offset it follows
 * the usual ("compatible") rule: a reading that happens twice (autumn) is the first one; a
 * reading that never happens (spring gap) is moved forward by the length of the gap.
 */
export function zonedWallClockToUtc(wall: WallClock, zone: string): Date {
  const local = asUtcMs(wall);
  const DAY = 86_400_000;
  // The offsets in force a day before and a day after bracket any single change of offset.
  const offsets = [...new Set([zoneOffsetMinutes(local - DAY, zone), zoneOffsetMinutes(local + DAY, zone)])];
  const matches = offsets
    .map((offset) => local - offset * 60_000)
    .filter((instant) => asUtcMs(wallClockAt(instant, zone)) === local)
    .sort((a, b) => a - b);
  if (matches[0] !== undefined) return new Date(matches[0]);
  // In a gap: read it with the offset before the change, which lands after the gap.
  return new Date(local - zoneOffsetMinutes(local - DAY, zone) * 60_000);
}

const CONNECTOR_TIMESTAMP = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?(\d{3})?$/;

/**
 * Reads a connector timestamp (`YYYYMMDDHHMMSSmmm`, also `YYYYMMDDHHMM` and
 * `YYYYMMDDHHMMSS`) as a wall clock; null when it is not one.
 */
export function parseConnectorTimestamp(value: string | null | undefined): WallClock | null {
  const m = CONNECTOR_TIMESTAMP.exec((value ?? '').trim());
  if (!m) return null;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const wall: WallClock = {
    year,
    month,
    day,
    hour,
    minute,
    second: Number(m[6] ?? 0),
    millisecond: Number(m[7] ?? 0),
  };
  const check = new Date(asUtcMs(wall));
  const valid =
    check.getUTCFullYear() === year &&
    check.getUTCMonth() === month - 1 &&
    check.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    wall.second < 60;
  return valid && year > 1900 ? wall : null;
}

/** A connector timestamp as an ISO 8601 UTC instant, read in `zone`; null when unreadable. */
export function connectorTimestampToIso(value: string | null | undefined, zone: string): string | null {
  const wall = parseConnectorTimestamp(value);
  return wall ? zonedWallClockToUtc(wall, zone).toISOString() : null;
}

/** True when two instants fall on the same calendar day in `zone`. */
export function sameDayIn(zone: string, a: Date, b: Date): boolean {
  const x = wallClockAt(a.getTime(), zone);
  const y = wallClockAt(b.getTime(), zone);
  return x.year === y.year && x.month === y.month && x.day === y.day;
}
