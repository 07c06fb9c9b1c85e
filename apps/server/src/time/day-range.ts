import type { THistoryDay } from '@synchro/contracts';
import { wallClockAt, zonedWallClockToUtc } from '@synchro/contracts/time';

/** One calendar day of a zone as the UTC instants [from, to). */
export interface DayRange {
  from: Date;
  to: Date;
}

/**
 * The calendar day a history filter names, in `zone`: a date as it is, an instant (the spec's
 * browser sends local noon) as the day it falls on there. The day starts at its first instant
 * (midnight, or the end of a gap at midnight) and lasts 23, 24 or 25 hours.
 */
export function dayRangeIn(day: THistoryDay, zone: string): DayRange {
  const { year, month, day: date } = day.kind === 'date' ? day : wallClockAt(day.epochMs, zone);
  // Date.UTC normalises the day after the last of a month.
  const next = new Date(Date.UTC(year, month - 1, date + 1));
  const midnight = { hour: 0, minute: 0, second: 0, millisecond: 0 };
  return {
    from: zonedWallClockToUtc({ year, month, day: date, ...midnight }, zone),
    to: zonedWallClockToUtc(
      { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate(), ...midnight },
      zone,
    ),
  };
}
