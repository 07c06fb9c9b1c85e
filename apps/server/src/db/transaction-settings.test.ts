import { describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/helpers/db.ts';
import { beginWith, setLocal } from './transaction-settings.ts';

describe('transaction settings', () => {
  it('BEGIN and its SET LOCALs in one text; none without settings', () => {
    expect(beginWith(undefined)).toBe('BEGIN');
    expect(beginWith({ 'synchro.batch_counts': 'on' })).toBe("BEGIN; SET LOCAL synchro.batch_counts = 'on'");
    expect(setLocal({})).toBeNull();
    expect(setLocal({ statement_timeout: '50ms', synchronous_commit: 'off' })).toBe(
      "SET LOCAL statement_timeout = '50ms'; SET LOCAL synchronous_commit = 'off'",
    );
  });

  it('refuses any name or value that is not a plain word: nothing else can be said', () => {
    for (const settings of <Record<string, string>[]>[
      { "synchro.x'; DROP TABLE t; --": 'on' },
      { search_path: 'public' },
      { statement_timeout: '0; RESET ALL' },
      { 'synchro.batch_counts': "on'; SELECT 1; --" },
    ]) {
      expect(() => beginWith(settings)).toThrow(/réglage de transaction invalide/);
      expect(() => setLocal(settings)).toThrow(/réglage de transaction invalide/);
    }
  });

  it('hold inside the transaction only', async () => {
    const db = await openTestDb();
    try {
      const read = (q: { query: typeof db.query }) =>
        q.query<{ v: string | null }>(`SELECT current_setting('synchro.batch_counts', true) AS v`);
      const inside = await db.transaction(read, { 'synchro.batch_counts': 'on' });
      expect(inside[0]?.v).toBe('on');
      for (let i = 0; i < 4; i++) expect((await read(db))[0]?.v ?? '').toBe('');
      expect((await db.transaction(read))[0]?.v ?? '').toBe('');
    } finally {
      await db.close();
    }
  });
});
