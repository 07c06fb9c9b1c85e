import {
  isValidTimeZone,
  wallClockAt,
  zonedWallClockToUtc,
  zoneOffsetMinutes,
  type WallClock,
} from '@synchro/contracts/time';
import type { TPlanning } from '@synchro/contracts';
import { formatUtcOffset } from '../../lib/format.ts';
import { parseOffset } from './time-zones.ts';

/**
 * The next runs of the schedule lines (« Prochaines synchronisations »): pure, the clock and the
 * zone given. A line is (day 1 Monday … 7 Sunday, 8 every day; time 'HH:MM'; type C/R/I); the
 * connector reads its times as wall-clock times of the installation's zone.
 *
 * Across a change of offset the usual ("compatible") rule of `zonedWallClockToUtc` applies: a time
 * that never happens (Europe/Paris, last Sunday of March, 02:00–02:59) runs at the same distance
 * after the gap (02:30 → 03:30 summer time); a time that happens twice (last Sunday of October,
 * 02:00–02:59) runs once, the first time (summer time). Two lines landing on the same instant
 * count as one run.
 */

/** Where the times are read: an IANA zone, or a fixed offset (minutes east of UTC). */
export type ScheduleZone = { zone: string } | { offsetMinutes: number };

export interface NextRun {
  /** The instant, epoch milliseconds. */
  at: number;
  /** The offset in force then, minutes east of UTC. */
  offsetMinutes: number;
  /** The wall clock of the zone then. */
  wall: WallClock;
}

const DAY = 86_400_000;

/**
 * The zone of the Planification form: the IANA zone stored in FuseauHoraire, else the offset read
 * from FuseauHoraireValeur (or the label); null when neither can be read.
 */
export function scheduleZone(timeZone: string, storedOffset: string): ScheduleZone | null {
  if (timeZone !== '' && isValidTimeZone(timeZone)) return { zone: timeZone };
  const offset = parseOffset(storedOffset) ?? parseOffset(timeZone);
  return offset === null ? null : { offsetMinutes: offset };
}

const parseTime = (time: string): { hour: number; minute: number } | null => {
  const m = /^(\d{1,2}):(\d{2})$/.exec(time.trim());
  if (!m) return null;
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  return hour < 24 && minute < 60 ? { hour, minute } : null;
};

function wallAt(at: number, where: ScheduleZone): WallClock {
  if ('zone' in where) return wallClockAt(at, where.zone);
  const d = new Date(at + where.offsetMinutes * 60_000);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
  };
}

function instantOf(wall: WallClock, where: ScheduleZone): number {
  if ('zone' in where) return zonedWallClockToUtc(wall, where.zone).getTime();
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute) - where.offsetMinutes * 60_000;
}

function offsetAt(at: number, where: ScheduleZone): number {
  if ('offsetMinutes' in where) return where.offsetMinutes;
  return zoneOffsetMinutes(at, where.zone);
}

/**
 * The next `count` runs strictly after `now` of the lines of type `type`, in order. Lines with an
 * unreadable time or day are skipped (the screen shows them as they are stored).
 */
export function nextRuns(
  plannings: readonly TPlanning[],
  type: string,
  where: ScheduleZone,
  now: number,
  count = 5,
): NextRun[] {
  const lines = plannings
    .filter((p) => p.type === type && p.day >= 1 && p.day <= 8)
    .map((p) => ({ day: p.day, time: parseTime(p.time) }))
    .filter((p): p is { day: number; time: { hour: number; minute: number } } => p.time !== null);
  if (lines.length === 0 || count <= 0) return [];
  const today = wallAt(now, where);
  const found = new Set<number>();
  // One week and a day of calendar days holds every weekly line at least once after now; `count`
  // weeks hold `count` runs of the rarest line.
  const days = 7 * count + 1;
  for (let i = 0; i <= days; i++) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day) + i * DAY);
    const isoDay = ((date.getUTCDay() + 6) % 7) + 1;
    for (const line of lines) {
      if (line.day !== 8 && line.day !== isoDay) continue;
      const at = instantOf(
        {
          year: date.getUTCFullYear(),
          month: date.getUTCMonth() + 1,
          day: date.getUTCDate(),
          hour: line.time.hour,
          minute: line.time.minute,
          second: 0,
          millisecond: 0,
        },
        where,
      );
      if (at > now) found.add(at);
    }
  }
  return [...found]
    .sort((a, b) => a - b)
    .slice(0, count)
    .map((at) => ({ at, offsetMinutes: offsetAt(at, where), wall: wallAt(at, where) }));
}

const WEEKDAYS = ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'];
const pad = (n: number) => String(n).padStart(2, '0');

/** 'dimanche 30/03/2025 03:30 (UTC+2)': the day, the wall clock of the zone and its offset then. */
export function formatNextRun(run: NextRun): string {
  const w = run.wall;
  const weekday = WEEKDAYS[(new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay() + 6) % 7];
  return `${weekday} ${pad(w.day)}/${pad(w.month)}/${w.year} ${pad(w.hour)}:${pad(w.minute)} (${formatUtcOffset(run.offsetMinutes)})`;
}
