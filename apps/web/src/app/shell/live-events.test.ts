import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../../lib/query-keys.ts';
import { applyLiveEvent } from './live-events.ts';

/** The query keys an event refreshes. */
function refreshedBy(event: { type: string; count?: number }): unknown[] {
  const client = new QueryClient();
  const invalidate = vi.spyOn(client, 'invalidateQueries').mockResolvedValue();
  applyLiveEvent(client, event);
  return invalidate.mock.calls.map(([filters]) => filters?.queryKey);
}

describe('what a live event refreshes', () => {
  it('new transactions: Général and Terminaux (their figures and last exchanges)', () => {
    expect(refreshedBy({ type: 'transactions', count: 2 })).toEqual([
      queryKeys.dashboard,
      queryKeys.terminalsActivity,
    ]);
  });

  it('new records: Général only (the lists say « N nouveaux » and keep their rows)', () => {
    expect(refreshedBy({ type: 'records', count: 1 })).toEqual([queryKeys.dashboard]);
  });
});
