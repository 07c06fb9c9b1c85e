import { describe, expect, it } from 'vitest';
import {
  connectorTimestampToIso,
  isValidTimeZone,
  parseConnectorTimestamp,
  sameDayIn,
  zonedWallClockToUtc,
  zoneOffsetMinutes,
} from './zoned.ts';

const wall = (s: string) => {
  const w = parseConnectorTimestamp(s);
  if (!w) throw new Error(`unreadable ${s}`);
  return w;
};
const utc = (s: string, zone: string) => zonedWallClockToUtc(wall(s), zone).toISOString();

describe('zonedWallClockToUtc', () => {
  it('reads the fixture last sync in Paris winter time', () => {
    expect(utc('20250309080952542', 'Europe/Paris')).toBe('2025-03-09T07:09:52.542Z');
  });

  it('uses summer time after the change and winter time before', () => {
    expect(utc('20250715120000000', 'Europe/Paris')).toBe('2025-07-15T10:00:00.000Z');
    expect(utc('20250330015959999', 'Europe/Paris')).toBe('2025-03-30T00:59:59.999Z');
    expect(utc('20250330030000000', 'Europe/Paris')).toBe('2025-03-30T01:00:00.000Z');
  });

  it('moves a reading inside the spring gap forward by the gap', () => {
    // 02:30 does not exist in Paris on 2025-03-30: it is read as 03:30 CEST.
    expect(utc('20250330023000000', 'Europe/Paris')).toBe('2025-03-30T01:30:00.000Z');
  });

  it('takes the first of two readings in the autumn overlap', () => {
    // 02:30 happens twice on 2025-10-26: first at +02:00.
    expect(utc('20251026023000000', 'Europe/Paris')).toBe('2025-10-26T00:30:00.000Z');
    expect(utc('20251026033000000', 'Europe/Paris')).toBe('2025-10-26T02:30:00.000Z');
  });

  it('handles other zones, southern hemisphere and half-hour offsets', () => {
    expect(utc('20250101000000000', 'UTC')).toBe('2025-01-01T00:00:00.000Z');
    expect(utc('20250115100000000', 'America/New_York')).toBe('2025-01-15T15:00:00.000Z');
    expect(utc('20250115100000000', 'Australia/Sydney')).toBe('2025-01-14T23:00:00.000Z');
    expect(utc('20250615100000000', 'Asia/Kolkata')).toBe('2025-06-15T04:30:00.000Z');
  });

  it('does not depend on the machine zone', () => {
    // Tests run with TZ=Europe/Paris; the answer for New York must not move with it.
    expect(utc('20251102013000000', 'America/New_York')).toBe('2025-11-02T05:30:00.000Z');
  });
});

describe('connector timestamps', () => {
  it('accepts 17, 14 and 12 digits', () => {
    expect(connectorTimestampToIso('20250305093300664', 'Europe/Paris')).toBe('2025-03-05T08:33:00.664Z');
    expect(connectorTimestampToIso('20250305093300', 'Europe/Paris')).toBe('2025-03-05T08:33:00.000Z');
    expect(connectorTimestampToIso('202503050933', 'Europe/Paris')).toBe('2025-03-05T08:33:00.000Z');
  });

  it('gives null for empty or impossible values', () => {
    for (const v of [
      '',
      null,
      undefined,
      'abc',
      '20251332000000000',
      '20250230120000000',
      '20250101250000000',
      '2025',
    ]) {
      expect(connectorTimestampToIso(v, 'Europe/Paris')).toBeNull();
    }
  });
});

describe('zone helpers', () => {
  it('knows valid zones and offsets', () => {
    expect(isValidTimeZone('Europe/Paris')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(zoneOffsetMinutes(Date.UTC(2025, 0, 1), 'Europe/Paris')).toBe(60);
    expect(zoneOffsetMinutes(Date.UTC(2025, 6, 1), 'Europe/Paris')).toBe(120);
  });

  it('compares calendar days in a zone', () => {
    // 23:30 UTC on 1 March is already 2 March in Paris.
    expect(
      sameDayIn('Europe/Paris', new Date('2025-03-01T23:30:00Z'), new Date('2025-03-02T10:00:00Z')),
    ).toBe(true);
    expect(sameDayIn('UTC', new Date('2025-03-01T23:30:00Z'), new Date('2025-03-02T10:00:00Z'))).toBe(false);
  });
});
