import { connectorTimeToUtc } from '@synchro/contracts';
import { zonedWallClockToUtc, type WallClock } from '@synchro/contracts/time';
import { describe, expect, it } from 'vitest';
import { connectorInstant, wallClockInZoneToUtc } from './connector-time.ts';

const ZONES = [
  'Europe/Paris',
  'America/New_York',
  'Australia/Lord_Howe', // 30-minute change of offset, at 02:00
  'Asia/Kathmandu', // +05:45
  'Pacific/Chatham', // +12:45 / +13:45
  'America/Santiago', // changes at midnight
  'Africa/Casablanca', // Ramadan changes
  'UTC',
];

const wallOf = (ms: number): WallClock => {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
  };
};

describe('wallClockInZoneToUtc', () => {
  it.each(ZONES)(
    '%s: the same instants as zonedWallClockToUtc over 2025, every minute of the days around each change',
    (zone) => {
      const DAY = 86_400_000;
      const start = Date.UTC(2025, 0, 1);
      const end = Date.UTC(2025, 11, 31);
      let compared = 0;
      // Days whose wall clock offset changes, read at noon (then every minute of the day before, the
      // day itself and the day after).
      let previous = zonedWallClockToUtc(wallOf(start), zone).getTime() - start;
      for (let day = start + DAY; day <= end; day += DAY) {
        const offset = zonedWallClockToUtc(wallOf(day), zone).getTime() - day;
        if (offset !== previous) {
          for (let m = day - 2 * DAY; m < day + DAY; m += 60_000) {
            expect(
              wallClockInZoneToUtc(wallOf(m), zone).getTime(),
              `${zone} ${new Date(m).toISOString()}`,
            ).toBe(zonedWallClockToUtc(wallOf(m), zone).getTime());
            compared++;
          }
        }
        previous = offset;
      }
      // And a spread of ordinary instants (milliseconds included).
      for (let i = 0; i < 1000; i++) {
        const m = start + Math.floor((((i * 7919) % 1000) / 1000) * (end - start)) + ((i * 37) % 1000);
        expect(wallClockInZoneToUtc(wallOf(m), zone).getTime()).toBe(
          zonedWallClockToUtc(wallOf(m), zone).getTime(),
        );
        compared++;
      }
      // Zones with changes of offset had their change days compared minute by minute.
      expect(compared > 1000).toBe(!['Asia/Kathmandu', 'UTC'].includes(zone));
    },
  );
});

describe('connectorInstant', () => {
  it.each([
    ['2025-11-14T09:12:00', 'Europe/Paris'],
    ['2025-07-01T09:12:00.1234567', 'Europe/Paris'],
    ['2025-03-30T02:30:00', 'Europe/Paris'], // in the gap
    ['2025-10-26T02:30:00', 'Europe/Paris'], // repeated
    ['2025-11-14T09:12:00+05:00', 'Europe/Paris'],
    ['2025-11-14 09:12Z', 'America/New_York'],
    ['2025-11-02T01:30:00', 'America/New_York'],
    ['2025-02-30T10:00:00', 'Europe/Paris'],
    ['14/11/2025', 'Europe/Paris'],
  ])('%s in %s is connectorTimeToUtc’s answer', (value, zone) => {
    expect(connectorInstant(value, zone)?.toISOString() ?? null).toBe(
      connectorTimeToUtc(value, zone)?.toISOString() ?? null,
    );
  });
});
