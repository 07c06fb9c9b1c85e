import { decodeConnectorText, parseRecord, recordAttachments } from '@synchro/config-xml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInstallation } from '../../test/helpers/app.ts';
import { openTestDb } from '../../test/helpers/db.ts';
import type { Db } from '../db/types.ts';
import { runAdmin } from './commands.ts';

let db: Db;

beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db.close();
});

async function admin(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, {
    openDb: async () => ({ ...db, close: async () => {} }),
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out, err: err.join('\n') };
}

describe('npm run admin -- seed-history', () => {
  it('realistic rows for the installation and its neighbours, counted, in three years', async () => {
    const { installation } = await addInstallation(db, { syncId: 'SEEDA' });
    const now = Date.now();
    const res = await admin(
      'seed-history',
      '--sync-id',
      'SEEDA',
      '--records',
      '3000',
      '--transactions',
      '2_000',
      '--installations',
      '3',
    );
    expect(res.code, res.err).toBe(0);
    expect(JSON.parse(res.out[0] ?? '{}')).toMatchObject({
      syncId: 'SEEDA',
      installations: 3,
      records: 3000 + 2 * 30,
      transactions: 2000 + 2 * 20,
    });
    expect(res.err).toContain('SEEDA records 3000/3000');

    const [stats] = await db.query<{
      n: number;
      errors: number;
      pending: number;
      types: number;
      oldest: Date;
      newest: Date;
      files: number;
      ged: number;
    }>(
      `SELECT count(*)::int AS n, (count(*) FILTER (WHERE etat = -1))::int AS errors,
              (count(*) FILTER (WHERE etat = 0))::int AS pending, count(DISTINCT type_enreg)::int AS types,
              min(date_heure) AS oldest, max(date_heure) AS newest,
              (count(*) FILTER (WHERE has_file))::int AS files, (count(*) FILTER (WHERE type_enreg = 'GED'))::int AS ged
       FROM import_records WHERE installation_id = $1`,
      [installation.id],
    );
    expect(stats?.n).toBe(3000);
    expect(stats?.errors).toBeGreaterThan(5);
    expect(stats?.errors).toBeLessThan(70);
    expect(stats?.pending).toBeGreaterThan(0);
    expect(stats?.types).toBe(6);
    const day = 86_400_000;
    expect(now - (stats?.oldest.getTime() ?? 0)).toBeGreaterThan(3 * 365 * day - 5 * day);
    expect(now - (stats?.newest.getTime() ?? 0)).toBeLessThan(2 * day);
    expect(stats?.files).toBeGreaterThan(0);
    const [files] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM import_record_files f JOIN import_records r ON r.id = f.record_id
       WHERE r.installation_id = $1`,
      [installation.id],
    );
    expect(files?.n).toBe(stats?.files);

    // Every record passes the engine's safe check; GED ones carry a document; texts in the convention.
    const samples = await db.query<{ type_enreg: string; enreg: string; log: string; etat: number }>(
      `SELECT type_enreg, enreg, log, etat FROM import_records WHERE installation_id = $1 ORDER BY id LIMIT 200`,
      [installation.id],
    );
    for (const r of samples) {
      parseRecord(r.enreg);
      if (r.type_enreg === 'GED') expect(recordAttachments(r.enreg)[0]?.size).toBeGreaterThan(0);
      if (r.etat === 1) expect(decodeConnectorText(r.log)).toMatch(/^Import réussi : /);
    }
    const [counts] = await db.query<{ total: number }>(
      'SELECT sum(total)::int AS total FROM import_record_day_counts WHERE installation_id = $1',
      [installation.id],
    );
    expect(counts?.total).toBe(3000);
    const [tx] = await db.query<{ n: number; errors: number; terminals: number }>(
      `SELECT count(*)::int AS n, (count(*) FILTER (WHERE err = 1))::int AS errors,
              count(DISTINCT id_tablette)::int AS terminals
       FROM transaction_logs WHERE installation_id = $1`,
      [installation.id],
    );
    expect(tx?.n).toBe(2000);
    expect(tx?.terminals).toBeGreaterThan(10);
    expect(tx?.errors).toBeGreaterThan(2);

    const neighbours = await db.query<{ sync_id: string }>(
      `SELECT sync_id FROM installations WHERE sync_id LIKE 'SEEDAV%' ORDER BY sync_id`,
    );
    expect(neighbours.map((r) => r.sync_id)).toEqual(['SEEDAV002', 'SEEDAV003']);

    // Run again: new rows, no clash with the first run's ids.
    const again = await admin('seed-history', '--sync-id', 'SEEDA', '--records', '10', '--transactions', '0');
    expect(again.code, again.err).toBe(0);
    expect(JSON.parse(again.out[0] ?? '{}')).toMatchObject({ records: 10, transactions: 0 });
  });

  it('refuses an unknown installation and bad numbers in French', async () => {
    let res = await admin('seed-history', '--sync-id', 'NOSUCH', '--records', '10');
    expect(res.code).toBe(1);
    expect(res.err).toContain("Aucune installation avec l'ID de synchronisation NOSUCH");
    res = await admin('seed-history', '--sync-id', 'SEEDA', '--records', 'beaucoup');
    expect(res.code).toBe(2);
    expect(res.err).toContain('--records : nombre entier positif attendu');
    res = await admin('seed-history', '--records', '10');
    expect(res.code).toBe(2);
    expect(res.err).toContain('--sync-id');
  });
});
