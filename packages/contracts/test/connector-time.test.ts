import { describe, expect, it } from 'vitest';
import { connectorTimeToUtc, formatZonedIso, parseIsoDateTime } from '../src/connector-time.ts';

const PARIS = 'Europe/Paris';
const utc = (value: string, zone = PARIS): string | undefined =>
  connectorTimeToUtc(value, zone)?.toISOString();

describe('connector times: ISO 8601 with or without offset', () => {
  it('reads a time without offset as the wall clock of the installation zone', () => {
    expect(utc('2025-11-14T09:12:00')).toBe('2025-11-14T08:12:00.000Z'); // winter, +01:00
    expect(utc('2025-07-14T09:12:00')).toBe('2025-07-14T07:12:00.000Z'); // summer, +02:00
    expect(utc('2025-11-14T09:12:00', 'America/New_York')).toBe('2025-11-14T14:12:00.000Z');
    expect(utc('2025-11-14T09:12:00', 'UTC')).toBe('2025-11-14T09:12:00.000Z');
  });

  it('reads a time with an offset as it is, whatever the zone', () => {
    expect(utc('2025-11-14T09:12:00+01:00')).toBe('2025-11-14T08:12:00.000Z');
    expect(utc('2025-11-14T09:12:00Z', 'Asia/Tokyo')).toBe('2025-11-14T09:12:00.000Z');
    expect(utc('2025-11-14T09:12:00-0530')).toBe('2025-11-14T14:42:00.000Z');
    expect(utc('2025-11-14T09:12:00+02')).toBe('2025-11-14T07:12:00.000Z');
  });

  it('accepts the forms .NET and RFC 3339 write: 7-digit fractions, a space, no seconds', () => {
    expect(utc('2025-11-14T09:12:00.1234567')).toBe('2025-11-14T08:12:00.123Z');
    expect(utc('2025-11-14T09:12:00.5+01:00')).toBe('2025-11-14T08:12:00.500Z');
    expect(utc('2025-11-14 09:12:00')).toBe('2025-11-14T08:12:00.000Z');
    expect(utc('2025-11-14T09:12')).toBe('2025-11-14T08:12:00.000Z');
    expect(utc(' 2025-11-14T09:12:00z ')).toBe('2025-11-14T09:12:00.000Z');
  });

  it('refuses what is not a date-time or names a day or time that cannot be', () => {
    for (const bad of [
      '',
      '20251114091200',
      '14/11/2025 09:12',
      '2025-11-14',
      '2025-02-29T10:00:00',
      '2025-13-01T10:00:00',
      '2025-11-14T24:00:00',
      '2025-11-14T09:60:00',
      '2025-11-14T09:12:61',
      '2025-11-14T09:12:00+25:00',
      '0050-01-01T00:00:00',
      '2025-11-14T09:12:00 +01:00',
    ]) {
      expect(parseIsoDateTime(bad), bad).toBeNull();
      expect(connectorTimeToUtc(bad, PARIS), bad).toBeNull();
    }
    expect(parseIsoDateTime('2024-02-29T10:00:00')).not.toBeNull();
  });

  it('moves a time in the spring gap forward by the gap (Paris, 30 March 2025)', () => {
    // 02:00 → 03:00: 02:30 never happens on the wall clocks; read as 03:30 CEST.
    expect(utc('2025-03-30T01:59:59')).toBe('2025-03-30T00:59:59.000Z');
    expect(utc('2025-03-30T02:30:00')).toBe('2025-03-30T01:30:00.000Z');
    expect(utc('2025-03-30T03:30:00')).toBe('2025-03-30T01:30:00.000Z');
    expect(utc('2025-03-30T03:00:00')).toBe('2025-03-30T01:00:00.000Z');
  });

  it('takes the first of the repeated autumn hour (Paris, 26 October 2025)', () => {
    // 03:00 → 02:00: 02:30 happens at 00:30Z (CEST) and again at 01:30Z (CET); the first one.
    expect(utc('2025-10-26T02:30:00')).toBe('2025-10-26T00:30:00.000Z');
    expect(utc('2025-10-26T01:59:00')).toBe('2025-10-25T23:59:00.000Z');
    expect(utc('2025-10-26T03:00:00')).toBe('2025-10-26T02:00:00.000Z');
    // An offset picks the second one explicitly.
    expect(utc('2025-10-26T02:30:00+01:00')).toBe('2025-10-26T01:30:00.000Z');
  });

  it('writes an instant as the wall clock of a zone with its offset, and reads it back', () => {
    expect(formatZonedIso(new Date('2025-11-14T08:12:00.000Z'), PARIS)).toBe('2025-11-14T09:12:00.000+01:00');
    expect(formatZonedIso(new Date('2025-07-14T07:12:00.042Z'), PARIS)).toBe('2025-07-14T09:12:00.042+02:00');
    expect(formatZonedIso(new Date('2025-11-14T14:12:00Z'), 'America/New_York')).toBe(
      '2025-11-14T09:12:00.000-05:00',
    );
    expect(formatZonedIso(new Date('2025-11-14T08:12:00Z'), 'Asia/Kolkata')).toBe(
      '2025-11-14T13:42:00.000+05:30',
    );
    // Both instants of the repeated hour keep their identity through the offset.
    for (const instant of ['2025-10-26T00:30:00.000Z', '2025-10-26T01:30:00.000Z']) {
      const written = formatZonedIso(new Date(instant), PARIS);
      expect(connectorTimeToUtc(written, PARIS)?.toISOString()).toBe(instant);
    }
  });
});
