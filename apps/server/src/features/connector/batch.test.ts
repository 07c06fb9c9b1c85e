import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../../test/helpers/db.ts';
import type { Db, Queryable } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { writeBatch, type BatchSteps } from './batch.ts';

/** writeBatch: chunks written while the next is checked, all or nothing. */

let db: Db;

beforeAll(async () => {
  db = await openTestDb();
  await db.exec('CREATE TABLE batch_probe (id text PRIMARY KEY, n int NOT NULL)');
});
afterAll(async () => {
  await db.close();
});

const stored = async () =>
  (await db.query<{ id: string }>('SELECT id FROM batch_probe ORDER BY n')).map((r) => r.id);

type Item = { id: string; n: number; bad?: boolean };

function steps(events: string[], overrides: Partial<BatchSteps<Item, Item>> = {}): BatchSteps<Item, Item> {
  return {
    chunkSize: 3,
    prepare: (chunk, offset, issues) => {
      events.push(`check ${offset}`);
      chunk.forEach((item, k) => {
        if (item.bad) issues.push({ path: `items[${offset + k}].n`, message: 'invalide' });
      });
      return [...chunk];
    },
    idOf: (item) => item.id,
    write: async (tx: Queryable, rows) => {
      events.push(`write ${rows[0]?.n}`);
      const inserted = await tx.query(
        `INSERT INTO batch_probe (id, n) SELECT * FROM unnest($1::text[], $2::int[])
         ON CONFLICT (id) DO NOTHING RETURNING 1`,
        [rows.map((r) => r.id), rows.map((r) => r.n)],
      );
      return inserted.length;
    },
    ...overrides,
  };
}

const items = (prefix: string, count: number): Item[] =>
  Array.from({ length: count }, (_, n) => ({ id: `${prefix}${n}`, n }));

describe('writeBatch', () => {
  it('writes every chunk in order, the next one checked while the previous one is written', async () => {
    const events: string[] = [];
    const answer = await writeBatch(db, items('A', 8), steps(events));
    expect(answer).toEqual({ inserted: 8, duplicates: 0 });
    expect(await stored()).toEqual(items('A', 8).map((i) => i.id));
    // A chunk's statement leaves before the next chunk is checked; the statements keep their order.
    expect(events.slice(0, 3)).toEqual(['check 0', 'write 0', 'check 3']);
    expect(events.filter((e) => e.startsWith('write'))).toEqual(['write 0', 'write 3', 'write 6']);
  });

  it('counts ids met earlier in the batch or already stored as duplicates (the first is kept)', async () => {
    const batch = [...items('B', 4), { id: 'B1', n: 100 }, { id: 'A0', n: 101 }];
    expect(await writeBatch(db, batch, steps([]))).toEqual({ inserted: 4, duplicates: 2 });
    const [row] = await db.query<{ n: number }>(`SELECT n FROM batch_probe WHERE id = 'B1'`);
    expect(row?.n).toBe(1);
  });

  it('a fault in the last chunk after others were written: 400 naming every fault, nothing written', async () => {
    const before = await stored();
    const batch = items('C', 10);
    batch[2] = { ...batch[2], bad: true } as Item;
    batch[9] = { ...batch[9], bad: true } as Item;
    const err = await writeBatch(db, batch, steps([])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(400);
    expect((err as AppError).message).toBe(
      'Requête invalide\u00a0: items[2].n\u00a0: invalide\u202f; items[9].n\u00a0: invalide',
    );
    expect(await stored()).toEqual(before);

    const late = items('D', 10);
    late[9] = { ...late[9], bad: true } as Item;
    const events: string[] = [];
    await expect(writeBatch(db, late, steps(events))).rejects.toThrow('items[9].n');
    expect(events.filter((e) => e.startsWith('write'))).toEqual(['write 0', 'write 3', 'write 6']);
    expect(await stored()).toEqual(before);
  });

  it('a statement that fails rolls the whole batch back and stops the next ones', async () => {
    const before = await stored();
    const events: string[] = [];
    const failing = steps(events, {
      write: async (tx, rows) => {
        events.push(`write ${rows[0]?.n}`);
        if (rows[0]?.n === 3) await tx.query('SELECT 1/0');
        await tx.query('INSERT INTO batch_probe (id, n) SELECT * FROM unnest($1::text[], $2::int[])', [
          rows.map((r) => r.id),
          rows.map((r) => r.n),
        ]);
        return rows.length;
      },
    });
    await expect(writeBatch(db, items('E', 9), failing)).rejects.toThrow(/division by zero/);
    expect(events.filter((e) => e.startsWith('write'))).toEqual(['write 0', 'write 3']);
    expect(await stored()).toEqual(before);
  });
});
