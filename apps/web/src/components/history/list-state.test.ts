import { describe, expect, it } from 'vitest';
import { filtersOfAddress, NO_FILTERS } from './list-state.ts';

describe('filters of the address (links of the console’s emails)', () => {
  it('reads search, errors and day', () => {
    expect(filtersOfAddress('?search=REJ-A&errors=1')).toEqual({
      day: null,
      search: 'REJ-A',
      errorOnly: true,
    });
    expect(filtersOfAddress('?day=2026-03-02')).toEqual({ day: '2026-03-02', search: '', errorOnly: false });
  });

  it('ignores what it does not know', () => {
    expect(filtersOfAddress('')).toEqual(NO_FILTERS);
    expect(filtersOfAddress('?errors=yes&day=02/03/2026&other=1')).toEqual(NO_FILTERS);
    expect(filtersOfAddress(`?search=${'x'.repeat(300)}`).search).toHaveLength(100);
  });
});
