import { describe, expect, it } from 'vitest';
import { dayFigures, scaleTop } from './activity-card.tsx';

describe('« Activité » chart', () => {
  it('rounds its scale up to 1, 2 or 5 × 10ⁿ, at least 2', () => {
    expect([0, 1, 2, 3, 7, 10, 13, 20, 21, 99, 101, 4_999, 5_001].map(scaleTop)).toEqual([
      2, 2, 2, 5, 10, 10, 20, 20, 50, 100, 200, 5_000, 10_000,
    ]);
  });

  it('writes a day’s figures in French', () => {
    expect(dayFigures({ day: '2025-03-30', records: 1, errors: 0, transactions: 1_234 })).toBe(
      '1 enregistrement importé, 0 en erreur, 1\u202f234 transactions',
    );
  });
});
