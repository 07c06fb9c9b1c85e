import { describe, expect, it } from 'vitest';
import { activityOf, durationText } from './terminal-activity.tsx';

describe('Terminaux figures', () => {
  it('sums a terminal’s tablet and smartphone ids and keeps the newest exchange', () => {
    const all = [
      { terminalId: 'TAB', lastExchangeAt: '2025-03-30T10:00:00.000Z', transactions24h: 2, errors24h: 1 },
      { terminalId: 'PHONE', lastExchangeAt: '2025-03-31T09:00:00.000Z', transactions24h: 3, errors24h: 0 },
      { terminalId: 'OTHER', lastExchangeAt: '2025-03-31T09:30:00.000Z', transactions24h: 9, errors24h: 9 },
    ];
    expect(activityOf({ ID_Tablette: 'TAB', ID_Smartphone: ' PHONE ' }, all)).toEqual({
      lastExchangeAt: '2025-03-31T09:00:00.000Z',
      transactions24h: 5,
      errors24h: 1,
    });
    expect(activityOf({ ID_Tablette: 'NONE', ID_Smartphone: '' }, all)).toEqual({
      lastExchangeAt: null,
      transactions24h: 0,
      errors24h: 0,
    });
  });

  it('says how long ago in French', () => {
    expect(durationText(30_000)).toBe('moins d’une minute');
    expect(durationText(5 * 60_000)).toBe('5 minutes');
    expect(durationText(26 * 3_600_000)).toBe('26 heures');
    expect(durationText(3 * 86_400_000)).toBe('3 jours');
  });
});
