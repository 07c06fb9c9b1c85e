import { describe, expect, it } from 'vitest';
import { addressWithFilters, filtersOfAddress, NO_FILTERS, queryString } from './list-state.ts';

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

  it('reads the terminal ids, the parameter repeated (a terminal’s tablet and smartphone)', () => {
    expect(filtersOfAddress('?terminal=TAB-7&terminal=PHONE-7').terminals).toEqual(['TAB-7', 'PHONE-7']);
    expect(filtersOfAddress('?terminal=TAB-7').terminals).toEqual(['TAB-7']);
    expect(filtersOfAddress('?terminal=&terminal=TAB-7&terminal=TAB-7').terminals).toEqual(['TAB-7']);
    expect(filtersOfAddress('?terminal=%20')).toEqual(NO_FILTERS);
    const many = Array.from({ length: 12 }, (_, i) => `terminal=T${i}`).join('&');
    expect(filtersOfAddress(`?${many}`).terminals).toHaveLength(10);
  });
});

describe('addressWithFilters (the address follows the filters)', () => {
  it('writes the filters in the names filtersOfAddress reads, keeping the other parameters', () => {
    const filters = { day: '2026-03-02', search: 'DEV 12', errorOnly: true, terminals: ['TAB', 'PHONE'] };
    const address = addressWithFilters('?tab=2&terminal=OLD&search=old', filters);
    expect(address).toBe('?tab=2&day=2026-03-02&search=DEV+12&errors=1&terminal=TAB&terminal=PHONE');
    expect(filtersOfAddress(address)).toEqual(filters);
  });

  it('removes a filter taken off, and gives an empty string when nothing is left', () => {
    expect(addressWithFilters('?terminal=TAB&errors=1', NO_FILTERS)).toBe('');
    expect(addressWithFilters('?waiting=1&drive=connected', { ...NO_FILTERS, waiting: false })).toBe(
      '?drive=connected',
    );
  });
});

describe('queryString', () => {
  it('repeats a parameter once per value of a list; leaves out the absent and empty ones', () => {
    expect(queryString({ terminal: ['TAB 7', 'PHONE&7'], page: 2, search: '', day: null })).toBe(
      '?terminal=TAB+7&terminal=PHONE%267&page=2',
    );
    expect(queryString({ terminal: [] })).toBe('');
  });
});
