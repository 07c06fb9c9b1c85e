import { parseIsoDateTime } from '@synchro/contracts';
import { wallClockAsUtcMs, wallClockAt, type WallClock } from '@synchro/contracts/time';

/**
 * The connector's ISO times read in an installation's zone, as `connectorTimeToUtc` of
 * @synchro/contracts (same rule, same results: tested against it), for batches of thousands. Each
 * exact reading of a zone's offset goes through Intl (`formatToParts`, several µs) and the plain
 * conversion needs three or four of them per time; here a zone's offset is read once per hour of
 * UTC time and reused for every instant of that hour whose start and end have the same offset.
 * (An hour holding two changes of offset, which no zone has, would be read wrong.) An hour with a
 * change is read exactly for each instant.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Cached hours per zone before the zone's cache starts again (a few MB at most). */
const MAX_HOURS_PER_ZONE = 200_000;

/** Offset of the wall clock of `zone` at instant `u`, in ms (exact: seconds included). */
function exactOffsetMs(u: number, zone: string): number {
  return wallClockAsUtcMs(wallClockAt(u, zone)) - u;
}

class ZoneOffsets {
  /** Offset at the start of each UTC hour (hour index → ms). */
  private readonly hourStart = new Map<number, number>();

  constructor(private readonly zone: string) {}

  private startOf(hour: number): number {
    let offset = this.hourStart.get(hour);
    if (offset === undefined) {
      if (this.hourStart.size >= MAX_HOURS_PER_ZONE) this.hourStart.clear();
      offset = exactOffsetMs(hour * HOUR_MS, this.zone);
      this.hourStart.set(hour, offset);
    }
    return offset;
  }

  /** The zone's offset at instant `u`, in ms. */
  at(u: number): number {
    const hour = Math.floor(u / HOUR_MS);
    const start = this.startOf(hour);
    return start === this.startOf(hour + 1) ? start : exactOffsetMs(u, this.zone);
  }
}

const zones = new Map<string, ZoneOffsets>();

function offsetsOf(zone: string): ZoneOffsets {
  let z = zones.get(zone);
  if (!z) {
    z = new ZoneOffsets(zone);
    zones.set(zone, z);
  }
  return z;
}

/**
 * The instant at which the clocks of `zone` read `wall`: zonedWallClockToUtc's rule (a reading
 * that happens twice is the first one, a reading in a spring gap moves forward by the gap).
 */
export function wallClockInZoneToUtc(wall: WallClock, zone: string): Date {
  const offsets = offsetsOf(zone);
  const local = wallClockAsUtcMs(wall);
  const minutes = (u: number) => Math.round(offsets.at(u) / 60_000);
  const before = minutes(local - DAY_MS);
  const after = minutes(local + DAY_MS);
  let best: number | null = null;
  for (const offset of before === after ? [before] : [before, after]) {
    const instant = local - offset * 60_000;
    if (instant + offsets.at(instant) === local && (best === null || instant < best)) best = instant;
  }
  return new Date(best ?? local - before * 60_000);
}

/**
 * The UTC instant of a connector time: with an offset, as written; without one, the wall clock
 * of `zone`. Null when the text is not an ISO 8601 date-time.
 */
export function connectorInstant(value: string, zone: string): Date | null {
  const parsed = parseIsoDateTime(value);
  if (!parsed) return null;
  if (parsed.offsetMinutes === null) return wallClockInZoneToUtc(parsed.wall, zone);
  return new Date(wallClockAsUtcMs(parsed.wall) - parsed.offsetMinutes * 60_000);
}
