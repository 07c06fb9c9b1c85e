import { wallClockAsUtcMs, zonedWallClockToUtc, type WallClock } from '@synchro/contracts/time';

// The zone arithmetic is shared with the browser; the dashboard and the tests reach it from here.
export {
  isValidTimeZone,
  sameDayIn,
  zonedWallClockToUtc,
  zoneOffsetMinutes,
  type WallClock,
} from '@synchro/contracts/time';

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
  const check = new Date(wallClockAsUtcMs(wall));
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
