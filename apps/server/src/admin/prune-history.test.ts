import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInstallation } from '../../test/helpers/app.ts';
import { openTestDb } from '../../test/helpers/db.ts';
import { insertRecords, insertTransactions } from '../../test/helpers/history.ts';
import type { Db } from '../db/types.ts';
import { runAdmin } from './commands.ts';

// The retention itself: domain/history-retention.test.ts. Both databases (TEST_DATABASE_URL).
let db: Db;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db.close();
});

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

async function ids(table: 'import_records' | 'transaction_logs', installationId: string) {
  const column = table === 'import_records' ? 'id_interne' : 'tx_id';
  const rows = await db.query<{ id: string }>(
    `SELECT ${column} AS id FROM ${table} WHERE installation_id = $1 ORDER BY 1`,
    [installationId],
  );
  return rows.map((r) => r.id);
}

describe('npm run admin -- prune-history --days N', () => {
  it('refused without --days; deletes now what is older than N days, keeps the rest', async () => {
    const { installation } = await addInstallation(db, { syncId: 'PRUNEA' });
    const id = installation.id;
    await insertRecords(db, id, [
      { IDInterne: 'OLD', DateHeure: ago(45) },
      { IDInterne: 'NEW', DateHeure: ago(10) },
    ]);
    await insertTransactions(db, id, [
      { ID: 'OLD', DateHeureTrt: ago(45) },
      { ID: 'NEW', DateHeureTrt: ago(10) },
    ]);
    const out: string[] = [];
    const err: string[] = [];
    const admin = (...argv: string[]) =>
      runAdmin(argv, {
        openDb: async () => ({ ...db, close: async () => {} }),
        out: (l) => out.push(l),
        err: (l) => err.push(l),
      });
    expect(await admin('prune-history')).toBe(2);
    expect(err.join('\n')).toContain('--days : un nombre entier supérieur ou égal à 1.');
    expect(await ids('import_records', id)).toEqual(['NEW', 'OLD']);

    expect(await admin('prune-history', '--days', '60')).toBe(0);
    expect(await ids('import_records', id)).toEqual(['NEW', 'OLD']);
    expect(await admin('prune-history', '--days', '30')).toBe(0);
    expect(await ids('import_records', id)).toEqual(['NEW']);
    expect(await ids('transaction_logs', id)).toEqual(['NEW']);
    expect(JSON.parse(out.at(-1) ?? '{}')).toMatchObject({ records: 1, transactions: 1 });
    // The installation's journal says it (the pass at 60 days deleted nothing: no row).
    const audits = await db.query<{ actor: string; details: unknown }>(
      `SELECT actor, details FROM audit_log WHERE installation_id = $1 AND action = 'history.prune'`,
      [id],
    );
    expect(audits).toEqual([{ actor: 'admin', details: { olderThanDays: 30, records: 1, transactions: 1 } }]);
  });
});
