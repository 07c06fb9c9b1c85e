import { describe, expect, it } from 'vitest';
import type { TPlanning } from '@synchro/contracts';
import { formatNextRun, nextRuns, scheduleZone } from './next-runs.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const paris = { zone: 'Europe/Paris' };

describe('nextRuns', () => {
  it('every day at 02:30 in Paris across the spring change (last Sunday of March 2025): the missing time runs after the gap', () => {
    const plannings: TPlanning[] = [{ day: 8, time: '02:30', type: 'C' }];
    const runs = nextRuns(plannings, 'C', paris, Date.parse('2025-03-28T12:00:00Z'));
    expect(runs.map((r) => iso(r.at))).toEqual([
      '2025-03-29T01:30:00.000Z', // Saturday 02:30 UTC+1
      '2025-03-30T01:30:00.000Z', // Sunday: 02:30 does not exist, 03:30 UTC+2
      '2025-03-31T00:30:00.000Z', // Monday 02:30 UTC+2
      '2025-04-01T00:30:00.000Z',
      '2025-04-02T00:30:00.000Z',
    ]);
    expect(runs.map(formatNextRun)).toEqual([
      'samedi 29/03/2025 02:30 (UTC+1)',
      'dimanche 30/03/2025 03:30 (UTC+2)',
      'lundi 31/03/2025 02:30 (UTC+2)',
      'mardi 01/04/2025 02:30 (UTC+2)',
      'mercredi 02/04/2025 02:30 (UTC+2)',
    ]);
  });

  it('across the autumn change (last Sunday of October 2025): a time read twice runs once, the first time', () => {
    const plannings: TPlanning[] = [
      { day: 8, time: '02:30', type: 'R' },
      { day: 7, time: '09:00', type: 'R' },
    ];
    const runs = nextRuns(plannings, 'R', paris, Date.parse('2025-10-25T12:00:00Z'));
    expect(runs.map(formatNextRun)).toEqual([
      'dimanche 26/10/2025 02:30 (UTC+2)',
      'dimanche 26/10/2025 09:00 (UTC+1)',
      'lundi 27/10/2025 02:30 (UTC+1)',
      'mardi 28/10/2025 02:30 (UTC+1)',
      'mercredi 29/10/2025 02:30 (UTC+1)',
    ]);
    expect(iso(runs[0]!.at)).toBe('2025-10-26T00:30:00.000Z');
    expect(iso(runs[1]!.at)).toBe('2025-10-26T08:00:00.000Z');
  });

  it('a zone without summer time keeps its offset all year (Asia/Tokyo, weekly lines)', () => {
    const plannings: TPlanning[] = [
      { day: 1, time: '23:45', type: 'I' },
      { day: 5, time: '00:00', type: 'I' },
      { day: 8, time: '06:00', type: 'C' },
    ];
    const runs = nextRuns(plannings, 'I', { zone: 'Asia/Tokyo' }, Date.parse('2025-03-29T00:00:00Z'));
    expect(runs.map(formatNextRun)).toEqual([
      'lundi 31/03/2025 23:45 (UTC+9)',
      'vendredi 04/04/2025 00:00 (UTC+9)',
      'lundi 07/04/2025 23:45 (UTC+9)',
      'vendredi 11/04/2025 00:00 (UTC+9)',
      'lundi 14/04/2025 23:45 (UTC+9)',
    ]);
  });

  it('only runs strictly after now, of the asked type, five at most; none without a line', () => {
    const plannings: TPlanning[] = [
      { day: 8, time: '10:00', type: 'C' },
      { day: 8, time: '10:00', type: 'C' },
      { day: 8, time: '25:00', type: 'C' },
      { day: 8, time: '11:00', type: 'R' },
    ];
    const now = Date.parse('2025-06-10T08:00:00Z'); // 10:00 in Paris (summer)
    const runs = nextRuns(plannings, 'C', paris, now);
    expect(runs).toHaveLength(5);
    expect(iso(runs[0]!.at)).toBe('2025-06-11T08:00:00.000Z');
    expect(nextRuns(plannings, 'I', paris, now)).toEqual([]);
  });

  it('a fixed offset when the stored zone is not an IANA name', () => {
    expect(scheduleZone('Europe/Paris', '+01:00')).toEqual({ zone: 'Europe/Paris' });
    expect(scheduleZone('GMT-3', '')).toEqual({ offsetMinutes: -180 });
    expect(scheduleZone('nowhere', '+05:30')).toEqual({ offsetMinutes: 330 });
    expect(scheduleZone('', '')).toBeNull();
    const runs = nextRuns(
      [{ day: 3, time: '08:15', type: 'C' }],
      'C',
      { offsetMinutes: 330 },
      Date.parse('2025-03-30T00:00:00Z'),
      2,
    );
    expect(runs.map(formatNextRun)).toEqual([
      'mercredi 02/04/2025 08:15 (UTC+5:30)',
      'mercredi 09/04/2025 08:15 (UTC+5:30)',
    ]);
  });
});
