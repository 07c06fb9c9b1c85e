import { describe, expect, it } from 'vitest';
import { bySize, valuesList } from './multi-row.ts';

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

describe('bySize', () => {
  it('builds a statement once per row count up to `most`, larger ones every time', () => {
    const built: number[] = [];
    const statement = bySize((count) => {
      built.push(count);
      return `INSERT … VALUES ${valuesList(count, 0, ['?'])}`;
    }, 3);
    expect(statement(2)).toBe('INSERT … VALUES ($1), ($2)');
    expect(statement(2)).toBe('INSERT … VALUES ($1), ($2)');
    expect(statement(3)).toBe('INSERT … VALUES ($1), ($2), ($3)');
    statement(3);
    statement(5);
    statement(5);
    expect(built).toEqual([2, 3, 5, 5]);
  });
});
