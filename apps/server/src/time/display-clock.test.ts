import { describe, expect, it } from 'vitest';
import { displayClock, displayTime, formatUtcOffset } from './display-clock.ts';

describe('displayClock', () => {
  it('writes dd/MM/yyyy HH:mm:ss and the offset of the instant', () => {
    const clock = displayClock('Europe/Paris');
    expect(clock(new Date('2025-11-14T08:12:03.999Z'))).toEqual({
      text: '14/11/2025 09:12:03',
      offset: 'UTC+01:00',
    });
    expect(clock(new Date('2025-07-01T21:59:59Z'))).toEqual({
      text: '01/07/2025 23:59:59',
      offset: 'UTC+02:00',
    });
  });

  it('agrees with Intl around the clock changes, minute by minute, in several zones', () => {
    const zones = [
      'Europe/Paris',
      'America/St_Johns',
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
      'America/Santiago',
    ];
    const starts = [
      '2025-03-30T00:00:00Z',
      '2025-10-26T00:00:00Z',
      '2025-04-06T00:00:00Z',
      '2025-11-02T00:00:00Z',
    ];
    for (const zone of zones) {
      const clock = displayClock(zone);
      for (const start of starts) {
        for (let m = 0; m < 6 * 60; m += 7) {
          const instant = new Date(Date.parse(start) + m * 60_000 + 1234);
          expect(clock(instant), `${zone} ${instant.toISOString()}`).toEqual(displayTime(instant, zone));
        }
      }
    }
  });

  it('agrees with Intl over two years read newest first (an export), every 37 minutes', () => {
    for (const zone of ['Europe/Paris', 'America/St_Johns', 'Australia/Lord_Howe', 'UTC']) {
      const clock = displayClock(zone);
      for (let ms = Date.UTC(2026, 0, 1); ms > Date.UTC(2024, 0, 1); ms -= 37 * 60_000 + 17) {
        expect(clock(ms), `${zone} ${new Date(ms).toISOString()}`).toEqual(displayTime(new Date(ms), zone));
      }
    }
  });

  it('formats offsets', () => {
    expect([formatUtcOffset(0), formatUtcOffset(-210), formatUtcOffset(345)]).toEqual([
      'UTC+00:00',
      'UTC-03:30',
      'UTC+05:45',
    ]);
  });
});
