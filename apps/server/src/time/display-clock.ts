import { wallClockAt, zoneOffsetMinutes } from '@synchro/contracts/time';

/** An instant as the screens show it in a zone: `dd/MM/yyyy HH:mm:ss` and `UTC+01:00`. */
export interface DisplayedTime {
  text: string;
  offset: string;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `UTC+01:00`, `UTC-03:30`, `UTC+00:00`. */
export function formatUtcOffset(minutes: number): string {
  const abs = Math.abs(minutes);
  return `UTC${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

// Offsets change at instants that are whole quarter hours of UTC (every zone of the tz database
// today), at most twice a year: an offset found for one quarter hour is taken for the day around
// it when the offsets a day before and a day after are the same.
const QUARTER_HOUR_MS = 15 * 60_000;
const DAY_QUARTERS = 96;

/**
 * A formatter of instants in `zone` for long runs of rows (CSV exports): the zone's offset is asked
 * of Intl about once per two days of rows met, the rest is arithmetic.
 */
export function displayClock(zone: string): (instant: Date | number) => DisplayedTime {
  // Quarter hours [from, to) where the offset is known to be `offsetMinutes`.
  let from = 0;
  let to = 0;
  let offsetMinutes = 0;
  let offsetText = '';
  let day = Number.NaN;
  let dayText = '';
  const offsetAt = (quarter: number) => zoneOffsetMinutes(quarter * QUARTER_HOUR_MS, zone);
  return (instant) => {
    const ms = typeof instant === 'number' ? instant : instant.getTime();
    const q = Math.floor(ms / QUARTER_HOUR_MS);
    if (q < from || q >= to) {
      offsetMinutes = offsetAt(q);
      offsetText = formatUtcOffset(offsetMinutes);
      const steady =
        offsetAt(q - DAY_QUARTERS) === offsetMinutes && offsetAt(q + DAY_QUARTERS) === offsetMinutes;
      from = steady ? q - DAY_QUARTERS : q;
      to = steady ? q + DAY_QUARTERS + 1 : q + 1;
    }
    const local = ms + offsetMinutes * 60_000;
    const d = Math.floor(local / 86_400_000);
    if (d !== day) {
      day = d;
      const w = new Date(d * 86_400_000);
      dayText = `${pad(w.getUTCDate())}/${pad(w.getUTCMonth() + 1)}/${w.getUTCFullYear()} `;
    }
    const seconds = Math.floor((local - d * 86_400_000) / 1000);
    return {
      text: `${dayText}${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`,
      offset: offsetText,
    };
  };
}

/** The same as displayClock, for one instant (tests compare both). */
export function displayTime(instant: Date, zone: string): DisplayedTime {
  const w = wallClockAt(instant.getTime(), zone);
  return {
    text: `${pad(w.day)}/${pad(w.month)}/${w.year} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`,
    offset: formatUtcOffset(zoneOffsetMinutes(instant, zone)),
  };
}
