import { describe, expect, it } from 'vitest';
import {
  formatDateTimeInZone,
  formatNumber,
  formatPlanningCounts,
  formatUtcOffset,
  pluralize,
  zoneOffsetMinutes,
} from './format.ts';

describe('pluralize', () => {
  it('uses the singular for 0 and 1 and the plural from 2', () => {
    expect(pluralize(0, 'Complète', 'Complètes')).toBe('0 Complète');
    expect(pluralize(1, 'Complète', 'Complètes')).toBe('1 Complète');
    expect(pluralize(2, 'Complète', 'Complètes')).toBe('2 Complètes');
    expect(pluralize(1500, 'Importation', 'Importations')).toBe('1\u202f500 Importations');
  });
});

describe('formatPlanningCounts', () => {
  it('reads "N Complètes / N Incrémentales / N Importations" from C, R, I', () => {
    expect(formatPlanningCounts({ C: 1, R: 2, I: 0 })).toBe('1 Complète / 2 Incrémentales / 0 Importation');
    expect(formatPlanningCounts({ C: 3, R: 1, I: 4 })).toBe('3 Complètes / 1 Incrémentale / 4 Importations');
  });
});

describe('formatNumber', () => {
  it('groups thousands with a narrow non-breaking space (fr-FR)', () => {
    expect(formatNumber(1838)).toBe('1\u202f838');
    expect(formatNumber(1234567)).toBe('1\u202f234\u202f567');
    expect(formatNumber(12)).toBe('12');
  });
});

describe('formatUtcOffset', () => {
  it('writes whole and fractional hour offsets', () => {
    expect(formatUtcOffset(60)).toBe('UTC+1');
    expect(formatUtcOffset(-210)).toBe('UTC-3:30');
    expect(formatUtcOffset(0)).toBe('UTC');
  });
});

describe('formatDateTimeInZone', () => {
  it('shows dd/MM/yyyy HH:mm in the zone, with its winter offset', () => {
    expect(formatDateTimeInZone('2025-03-09T07:09:52.542Z', 'Europe/Paris')).toBe('09/03/2025 08:09 (UTC+1)');
  });
  it('uses the summer offset after the change of time', () => {
    expect(formatDateTimeInZone('2025-07-14T22:30:00Z', 'Europe/Paris')).toBe('15/07/2025 00:30 (UTC+2)');
    expect(zoneOffsetMinutes(new Date('2025-07-14T22:30:00Z'), 'Europe/Paris')).toBe(120);
  });
  it('does not depend on the machine zone and handles other zones', () => {
    expect(formatDateTimeInZone('2025-01-01T12:00:00Z', 'America/New_York')).toBe('01/01/2025 07:00 (UTC-5)');
    expect(formatDateTimeInZone('2025-01-01T12:00:00Z', 'Asia/Kolkata')).toBe('01/01/2025 17:30 (UTC+5:30)');
  });
  it('can omit the offset, falls back to UTC for an unknown zone and gives null for garbage', () => {
    expect(formatDateTimeInZone('2025-03-09T07:09:00Z', 'Europe/Paris', false)).toBe('09/03/2025 08:09');
    expect(formatDateTimeInZone('2025-03-09T07:09:00Z', 'Nowhere/Land')).toBe('09/03/2025 07:09 (UTC)');
    expect(formatDateTimeInZone('pas une date', 'Europe/Paris')).toBeNull();
  });
  it('adds the seconds on request (history lists: dd/MM/yyyy HH:mm:ss)', () => {
    expect(formatDateTimeInZone('2025-03-09T07:09:05Z', 'Europe/Paris', false, true)).toBe(
      '09/03/2025 08:09:05',
    );
    expect(formatDateTimeInZone('2025-07-14T22:30:59Z', 'Europe/Paris', true, true)).toBe(
      '15/07/2025 00:30:59 (UTC+2)',
    );
  });
});
