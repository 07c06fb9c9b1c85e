import { describe, expect, it } from 'vitest';
import { ByteBudget, SMALL_BODY } from './byte-budget.ts';

describe('ByteBudget', () => {
  const MB = 1024 * 1024;

  it('holds bodies per installation and in all, gives them back once', () => {
    const budget = new ByteBudget({ perInstallation: 10 * MB, total: 15 * MB });
    const a1 = budget.take('A', 6 * MB);
    expect(a1).not.toBeNull();
    expect(budget.take('A', 6 * MB)).toBeNull();
    const b1 = budget.take('B', 6 * MB);
    expect(b1).not.toBeNull();
    // A third installation's big body would pass the total.
    expect(budget.take('C', 6 * MB)).toBeNull();
    // A small one never waits for the others' big ones.
    const c1 = budget.take('C', SMALL_BODY);
    expect(c1).not.toBeNull();
    expect(budget.held()).toBe(12 * MB + SMALL_BODY);
    a1?.();
    a1?.();
    expect(budget.held('A')).toBe(0);
    expect(budget.held()).toBe(6 * MB + SMALL_BODY);
    b1?.();
    c1?.();
    expect(budget.held()).toBe(0);
  });

  it('takes one body larger than a limit when nothing else is held (the route limit bounds it)', () => {
    const budget = new ByteBudget({ perInstallation: 10 * MB, total: 15 * MB });
    const big = budget.take('A', 96 * MB);
    expect(big).not.toBeNull();
    expect(budget.take('B', 2 * MB)).toBeNull();
    big?.();
    expect(budget.take('B', 2 * MB)).not.toBeNull();
  });

  it('tells when to come back: seconds to work through what is held, from 1 to 30', () => {
    const budget = new ByteBudget({ perInstallation: 200 * MB, total: 10_000 * MB });
    expect(budget.retryAfterSeconds('A')).toBe(1);
    budget.take('A', 80 * MB);
    expect(budget.retryAfterSeconds('A')).toBe(4);
    budget.take('B', 200 * MB);
    expect(budget.retryAfterSeconds('A')).toBe(14);
    budget.take('C', 200 * MB);
    budget.take('D', 200 * MB);
    expect(budget.retryAfterSeconds('A')).toBe(30);
  });
});
