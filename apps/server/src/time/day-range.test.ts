import { describe, expect, it } from 'vitest';
import { dayRangeIn } from './day-range.ts';

const iso = (r: { from: Date; to: Date }) => [r.from.toISOString(), r.to.toISOString()];
const hours = (r: { from: Date; to: Date }) => (r.to.getTime() - r.from.getTime()) / 3_600_000;

describe('dayRangeIn', () => {
  it('a date in Paris, winter and summer', () => {
    expect(iso(dayRangeIn({ kind: 'date', year: 2025, month: 11, day: 14 }, 'Europe/Paris'))).toEqual([
      '2025-11-13T23:00:00.000Z',
      '2025-11-14T23:00:00.000Z',
    ]);
    expect(iso(dayRangeIn({ kind: 'date', year: 2025, month: 7, day: 1 }, 'Europe/Paris'))).toEqual([
      '2025-06-30T22:00:00.000Z',
      '2025-07-01T22:00:00.000Z',
    ]);
  });

  it('the days of the clock changes last 23 and 25 hours', () => {
    expect(hours(dayRangeIn({ kind: 'date', year: 2025, month: 3, day: 30 }, 'Europe/Paris'))).toBe(23);
    expect(hours(dayRangeIn({ kind: 'date', year: 2025, month: 10, day: 26 }, 'Europe/Paris'))).toBe(25);
    expect(hours(dayRangeIn({ kind: 'date', year: 2025, month: 3, day: 9 }, 'America/New_York'))).toBe(23);
  });

  it('a day whose midnight falls in a gap starts when the gap ends', () => {
    // Santiago moved from -04 to -03 at 00:00 on 2024-09-08: the day starts at 01:00 local.
    const r = dayRangeIn({ kind: 'date', year: 2024, month: 9, day: 8 }, 'America/Santiago');
    expect(r.from.toISOString()).toBe('2024-09-08T04:00:00.000Z');
    expect(hours(r)).toBe(23);
  });

  it('an instant is the day it falls on in the zone', () => {
    // The browser's local noon in Paris, and the same instant read in Tokyo and Los Angeles.
    const noon = Date.UTC(2025, 10, 14, 11);
    expect(iso(dayRangeIn({ kind: 'instant', epochMs: noon }, 'Europe/Paris'))[0]).toBe(
      '2025-11-13T23:00:00.000Z',
    );
    expect(iso(dayRangeIn({ kind: 'instant', epochMs: Date.UTC(2025, 10, 14, 16) }, 'Asia/Tokyo'))[0]).toBe(
      '2025-11-14T15:00:00.000Z',
    );
    expect(
      iso(dayRangeIn({ kind: 'instant', epochMs: Date.UTC(2025, 10, 14, 5) }, 'America/Los_Angeles'))[0],
    ).toBe('2025-11-13T08:00:00.000Z');
  });

  it('month and year ends', () => {
    expect(iso(dayRangeIn({ kind: 'date', year: 2024, month: 12, day: 31 }, 'UTC'))).toEqual([
      '2024-12-31T00:00:00.000Z',
      '2025-01-01T00:00:00.000Z',
    ]);
    expect(iso(dayRangeIn({ kind: 'date', year: 2024, month: 2, day: 29 }, 'UTC'))[1]).toBe(
      '2024-03-01T00:00:00.000Z',
    );
  });
});
