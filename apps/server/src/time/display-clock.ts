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
// today): within one quarter hour the offset is one, so it is looked up once per quarter hour.
const QUARTER_HOUR_MS = 15 * 60_000;

/**
 * A formatter of instants in `zone` for long runs of rows (CSV exports): the zone's offset is
 * computed with Intl once per quarter hour met, the rest is arithmetic.
 */
export function displayClock(zone: string): (instant: Date) => DisplayedTime {
  let quarter = Number.NaN;
  let offsetMinutes = 0;
  let offsetText = '';
  return (instant) => {
    const ms = instant.getTime();
    const q = Math.floor(ms / QUARTER_HOUR_MS);
    if (q !== quarter) {
      quarter = q;
      offsetMinutes = zoneOffsetMinutes(q * QUARTER_HOUR_MS, zone);
      offsetText = formatUtcOffset(offsetMinutes);
    }
    const w = new Date(ms + offsetMinutes * 60_000);
    return {
      text:
        `${pad(w.getUTCDate())}/${pad(w.getUTCMonth() + 1)}/${w.getUTCFullYear()} ` +
        `${pad(w.getUTCHours())}:${pad(w.getUTCMinutes())}:${pad(w.getUTCSeconds())}`,
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
