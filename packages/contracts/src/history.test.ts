import { describe, expect, it } from 'vitest';
import {
  HISTORY_LIMITS,
  nextEtat,
  parseHistoryDay,
  syncHistoryRecordPath,
  transactionLogPath,
  ZSyncHistoryQuery,
  ZSyncHistoryStatusRequest,
  ZTransactionLogsQuery,
} from './index.ts';
import { parsePayload } from './sections/payload.ts';

describe('history queries', () => {
  it('defaults: page 1, 25 rows, no filter', () => {
    expect(ZSyncHistoryQuery.parse({})).toEqual({
      page: 1,
      pageSize: 25,
      errorOnly: false,
      waitingOnly: false,
    });
    expect(ZSyncHistoryQuery.parse({ page: '', pageSize: ' ', search: '  ', date: '' })).toEqual({
      page: 1,
      pageSize: 25,
      errorOnly: false,
      waitingOnly: false,
    });
  });

  it('caps the page size at 100 and reads query-string values', () => {
    const q = ZSyncHistoryQuery.parse({ page: '3', pageSize: '5000', errorOnly: 'true', search: ' 50%_\\ ' });
    expect(q).toMatchObject({
      page: 3,
      pageSize: HISTORY_LIMITS.pageSizeMax,
      errorOnly: true,
      search: '50%_\\',
    });
    expect(ZSyncHistoryQuery.parse({ errorOnly: '0' }).errorOnly).toBe(false);
    expect(ZSyncHistoryQuery.parse({ errorOnly: '1' }).errorOnly).toBe(true);
  });

  it.each([
    [{ page: '0' }, 'page'],
    [{ page: '-1' }, 'page'],
    [{ page: 'abc' }, 'page'],
    [{ page: '1.5' }, 'page'],
    [{ pageSize: '0' }, 'pageSize'],
    [{ errorOnly: 'oui' }, 'errorOnly'],
    [{ date: '14/11/2025' }, 'date'],
    [{ date: '2025-02-30' }, 'date'],
    [{ search: 'x'.repeat(101) }, 'search'],
    [{ search: 'a\u0000b' }, 'search'],
  ])('refuses %j with a French message on %s', (query, path) => {
    const r = parsePayload(ZSyncHistoryQuery, query);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.issues[0]?.path).toBe(path);
      expect(r.issues[0]?.message).toMatch(/attendu|trop long/);
    }
  });

  it('reads the day: a calendar date, a wall clock, an instant (the browser’s local noon)', () => {
    expect(parseHistoryDay('2025-11-14')).toEqual({ kind: 'date', year: 2025, month: 11, day: 14 });
    expect(parseHistoryDay('2025-11-14T23:30:00')).toEqual({ kind: 'date', year: 2025, month: 11, day: 14 });
    expect(parseHistoryDay('2025-11-14T11:00:00.000Z')).toEqual({
      kind: 'instant',
      epochMs: Date.UTC(2025, 10, 14, 11),
    });
    expect(parseHistoryDay('2025-11-14T12:00:00+01:00')).toEqual({
      kind: 'instant',
      epochMs: Date.UTC(2025, 10, 14, 11),
    });
    expect(parseHistoryDay('nope')).toBeNull();
  });

  it('the trace query uses searchText and dateFilter', () => {
    expect(ZTransactionLogsQuery.parse({ searchText: 'pixel', dateFilter: '2025-03-30' })).toMatchObject({
      searchText: 'pixel',
      dateFilter: { kind: 'date', year: 2025, month: 3, day: 30 },
    });
  });
});

describe('status', () => {
  it('accepts 1, -1, 0 (also as text) and nothing else', () => {
    expect(ZSyncHistoryStatusRequest.parse({ newStatus: -1 }).newStatus).toBe(-1);
    expect(ZSyncHistoryStatusRequest.parse({ newStatus: '1' }).newStatus).toBe(1);
    for (const bad of [2, '2', 'x', null, true]) {
      const r = parsePayload(ZSyncHistoryStatusRequest, { newStatus: bad });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.issues[0]?.message).toContain('newStatus doit valoir');
    }
  });

  it('cycles 0 → 1 → −1 → 0', () => {
    expect([nextEtat(0), nextEtat(1), nextEtat(-1), nextEtat(7)]).toEqual([1, -1, 0, 0]);
  });
});

describe('paths', () => {
  it('encodes ids', () => {
    expect(syncHistoryRecordPath('A/B é', 'xml')).toBe('/api/sync-history/A%2FB%20%C3%A9/xml');
    expect(transactionLogPath('T-1?')).toBe('/api/transaction-logs/T-1%3F');
  });
});
