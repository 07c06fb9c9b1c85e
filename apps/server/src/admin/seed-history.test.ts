import { decodeConnectorText, parseRecord, recordAttachments } from '@synchro/config-xml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInstallation, testApp } from '../../test/helpers/app.ts';
import { connectorCall } from '../../test/helpers/connector.ts';
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

async function rowsOf(installationId: string) {
  const [row] = await db.query<{ records: number; transactions: number }>(
    `SELECT (SELECT count(*)::int FROM import_records WHERE installation_id = $1) AS records,
            (SELECT count(*)::int FROM transaction_logs WHERE installation_id = $1) AS transactions`,
    [installationId],
  );
  return row;
}

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
    const { installation } = await addInstallation(db, { syncId: 'SEEDA', bench: true });
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
    // Never a record in the connector's import queue.
    expect(stats?.pending).toBe(0);
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

    const neighbours = await db.query<{ sync_id: string; bench: boolean }>(
      `SELECT sync_id, bench FROM installations WHERE sync_id LIKE 'SEEDAV%' ORDER BY sync_id`,
    );
    expect(neighbours).toEqual([
      { sync_id: 'SEEDAV002', bench: true },
      { sync_id: 'SEEDAV003', bench: true },
    ]);

    // Run again: new rows, no clash with the first run's ids.
    const again = await admin('seed-history', '--sync-id', 'SEEDA', '--records', '10', '--transactions', '0');
    expect(again.code, again.err).toBe(0);
    expect(JSON.parse(again.out[0] ?? '{}')).toMatchObject({ records: 10, transactions: 0 });
  });

  it('--neighbour-rows sets how many rows each neighbour gets instead of 1 %', async () => {
    await addInstallation(db, { syncId: 'SEEDN', bench: true });
    const res = await admin(
      'seed-history',
      '--sync-id',
      'SEEDN',
      '--records',
      '3000',
      '--transactions',
      '1000',
      '--installations',
      '3',
      '--neighbour-rows',
      '7',
    );
    expect(res.code, res.err).toBe(0);
    expect(JSON.parse(res.out[0] ?? '{}')).toMatchObject({
      records: 3000 + 2 * 7,
      transactions: 1000 + 2 * 7,
    });
    const rows = await db.query<{ sync_id: string; records: number; transactions: number }>(
      `SELECT i.sync_id, (SELECT count(*)::int FROM import_records r WHERE r.installation_id = i.id) AS records,
              (SELECT count(*)::int FROM transaction_logs t WHERE t.installation_id = i.id) AS transactions
       FROM installations i WHERE i.sync_id LIKE 'SEEDN%' ORDER BY i.sync_id`,
    );
    expect(rows).toEqual([
      { sync_id: 'SEEDN', records: 3000, transactions: 1000 },
      { sync_id: 'SEEDNV002', records: 7, transactions: 7 },
      { sync_id: 'SEEDNV003', records: 7, transactions: 7 },
    ]);
    const bad = await admin(
      'seed-history',
      '--sync-id',
      'SEEDN',
      '--records',
      '1',
      '--neighbour-rows',
      'peu',
    );
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--neighbour-rows : nombre entier positif attendu (peu).');
  });

  it('refuses an installation that is not a bench one, in French, before writing or creating anything', async () => {
    const { installation } = await addInstallation(db, { syncId: 'REAL01' });
    const before = await rowsOf(installation.id);
    const res = await admin('seed-history', '--sync-id', 'REAL01', '--records', '50', '--installations', '2');
    expect(res.code).toBe(1);
    expect(res.err).toBe(
      "Erreur : L'installation REAL01 n'est pas une installation de banc d'essai : seed-history n'y écrit " +
        'pas de lignes générées, qui se mêleraient à son historique réel. Utilisez une installation créée ' +
        'avec create-installation --bench, ou ajoutez --force pour y écrire quand même (jamais dans sa ' +
        "file d'import).",
    );
    expect(await rowsOf(installation.id)).toEqual(before);
    expect(await db.query(`SELECT 1 FROM installations WHERE sync_id = 'REAL01V002'`)).toEqual([]);
    // A neighbour that exists and is not a bench one is refused too, the main one untouched.
    const bench = await addInstallation(db, { syncId: 'BENCHB', bench: true });
    await addInstallation(db, { syncId: 'BENCHBV002' });
    const mixed = await admin(
      'seed-history',
      '--sync-id',
      'BENCHB',
      '--records',
      '50',
      '--installations',
      '2',
    );
    expect(mixed.code).toBe(1);
    expect(mixed.err).toContain("L'installation BENCHBV002 n'est pas une installation de banc d'essai");
    expect(await rowsOf(bench.installation.id)).toEqual({ records: 0, transactions: 0 });
  });

  it('--force writes into it all the same, never into its import queue: its connector finds nothing to import', async () => {
    const { installation, connectorToken } = await addInstallation(db, { syncId: 'REAL02' });
    const res = await admin('seed-history', '--sync-id', 'REAL02', '--records', '2000', '--force');
    expect(res.code, res.err).toBe(0);
    expect(await rowsOf(installation.id)).toEqual({ records: 2000, transactions: 0 });
    const [pending] = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM import_records WHERE installation_id = $1 AND etat = 0',
      [installation.id],
    );
    expect(pending?.n).toBe(0);
    const app = await testApp(db);
    try {
      const queue = await connectorCall(app, 'GET', '/import-records/queue?limit=100', connectorToken);
      expect(queue.statusCode, queue.body).toBe(200);
      expect(queue.json()).toEqual({ records: [] });
    } finally {
      await app.close();
    }
    const [audit] = await db.query<{ details: Record<string, unknown> }>(
      `SELECT details FROM audit_log WHERE installation_id = $1 AND action = 'history.seed'`,
      [installation.id],
    );
    expect(audit?.details).toMatchObject({ records: 2000, force: true, seconds: expect.any(Number) });
  });

  it('create-installation --bench makes a bench installation; list says which are', async () => {
    const res = await admin(
      'create-installation',
      '--sync-id',
      'BENCHC',
      '--client-id',
      'bench-client-7f3Kq9',
      '--bench',
    );
    expect(res.code, res.err).toBe(0);
    const seeded = await admin('seed-history', '--sync-id', 'BENCHC', '--records', '10');
    expect(seeded.code, seeded.err).toBe(0);
    const listed = (await admin('list')).out.map((l) => JSON.parse(l) as { syncId: string; bench: boolean });
    expect(listed.find((l) => l.syncId === 'BENCHC')?.bench).toBe(true);
    expect(listed.find((l) => l.syncId === 'REAL01')?.bench).toBe(false);
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

describe('npm run admin -- seed-history --audit', () => {
  it('fills the audit journal: kinds, outcomes, searchable French labels, counters, within the retention', async () => {
    const { installation } = await addInstallation(db, { syncId: 'SEEDAUD', bench: true });
    const res = await admin(
      'seed-history',
      '--sync-id',
      'SEEDAUD',
      '--audit',
      '2000',
      '--installations',
      '2',
    );
    expect(res.code, res.err).toBe(0);
    expect(JSON.parse(res.out[0] ?? '{}')).toMatchObject({ audit: 2000 + 20, records: 0, transactions: 0 });
    const [stats] = await db.query<{
      n: number;
      kinds: number;
      failures: number;
      oldest: Date;
      labelled: number;
    }>(
      `SELECT count(*)::int AS n, count(DISTINCT kind)::int AS kinds,
              (count(*) FILTER (WHERE outcome = 'failure'))::int AS failures, min(at) AS oldest,
              (count(*) FILTER (WHERE search_text LIKE '%connexion reussie%'))::int AS labelled
       FROM audit_log WHERE installation_id = $1 AND action <> 'installation.create' AND action <> 'history.seed'`,
      [installation.id],
    );
    expect(stats!.n).toBe(2000);
    expect(stats!.kinds).toBeGreaterThanOrEqual(6);
    expect(stats!.failures).toBeGreaterThan(0);
    expect(stats!.labelled).toBeGreaterThan(0);
    expect(Date.now() - stats!.oldest.getTime()).toBeLessThan(400 * 86_400_000);
    const [counted] = await db.query<{ n: number }>(
      `SELECT sum(total)::int AS n FROM audit_log_day_counts WHERE installation_id = $1`,
      [installation.id],
    );
    const [rows] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE installation_id = $1`,
      [installation.id],
    );
    expect(counted!.n).toBe(rows!.n);
  });
});
