import { describe, expect, it } from 'vitest';
import { valuesList } from './multi-row.ts';

describe('valuesList', () => {
  it('numbers each row’s parameters after the shared ones, casts kept, shared ones repeated', () => {
    expect(valuesList(2, 2, ['$1', '?', '?::int', '$2'])).toBe(
      '($1, $3, $4::int, $2), ($1, $5, $6::int, $2)',
    );
  });

  it('one row, no shared parameter', () => {
    expect(valuesList(1, 0, ['?', '?'])).toBe('($1, $2)');
  });
});
