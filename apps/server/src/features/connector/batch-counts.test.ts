import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { usingPostgres } from '../../../test/helpers/db.ts';
import {
  connectorCall,
  connectorInstallation,
  importRecord,
  transaction,
} from '../../../test/helpers/connector.ts';
import { OFFLOAD_MIN_BYTES } from '../../offload/pool.ts';

/**
 * The counters of a connector batch written once for the batch (migration 019, batch-counts.ts)
 * equal what the insert triggers write for the same rows inserted by a plain INSERT: every
 * counter table, row for row. Small bodies, big ones (a worker thread; written apart on the
 * embedded database), duplicates within a batch and across batches, a refused batch.
 */

const clock = new Date('2025-11-20T10:00:00Z');

const ctx = useTestApp({ now: () => clock });

/** Every counter the insert triggers keep, by table, for one installation (its id left out). */
const COUNTERS: Record<string, string> = {
  import_record_day_counts: 'day, total, errors',
  import_record_quarter_counts: 'quarter, total, errors',
  import_record_zone_day_counts: 'day, total, errors',
  import_record_state_counts: 'etat, n',
  transaction_log_day_counts: 'day, total, errors',
  transaction_log_quarter_counts: 'quarter, total, errors',
  transaction_log_zone_day_counts: 'day, total',
  terminal_hour_counts: 'id_tablette, hour, total, errors',
  terminal_last_exchange: 'id_tablette, last_at, total, errors',
  installation_storage: 'bytes',
};

async function counters(installationId: string): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [table, columns] of Object.entries(COUNTERS)) {
    out[table] = await ctx.db.query(
      `SELECT ${columns} FROM ${table} WHERE installation_id = $1 ORDER BY ${columns}`,
      [installationId],
    );
  }
  return out;
}

/** The rows of `from`, inserted again for `to` by plain INSERTs: the insert triggers count them. */
async function copyByPlainInsert(from: string, to: string): Promise<void> {
  await ctx.db.query(
    `INSERT INTO import_records (installation_id, id_interne, type_enreg, ref_doc, date_heure, num_ligne,
       type_element, etat, log, enreg, has_file, sent_texts, received_at, updated_at)
     SELECT $2, id_interne, type_enreg, ref_doc, date_heure, num_ligne, type_element, etat, log,
       coalesce(enreg, ''), has_file, sent_texts, received_at, updated_at
     FROM import_records WHERE installation_id = $1`,
    [from, to],
  );
  await ctx.db.query(
    `INSERT INTO transaction_logs (installation_id, tx_id, err, date_heure_trt, num_transaction, type_doc,
       ref_doc, id_tablette, libelle_tablette, log, received_at)
     SELECT $2, tx_id, err, date_heure_trt, num_transaction, type_doc, ref_doc, id_tablette,
       libelle_tablette, log, received_at
     FROM transaction_logs WHERE installation_id = $1`,
    [from, to],
  );
}

/** Both installations count their days in the same zone (the zone of « Activité »). */
async function countDaysIn(zone: string, ...ids: string[]): Promise<void> {
  for (const id of ids)
    await ctx.db.query('INSERT INTO activity_zone (installation_id, zone) VALUES ($1, $2)', [id, zone]);
}

const spread = (n: number) =>
  `2025-${String((n % 12) + 1).padStart(2, '0')}-${String((n % 28) + 1).padStart(2, '0')}T${String(n % 24).padStart(2, '0')}:${String((n * 7) % 60).padStart(2, '0')}:00`;

describe('batch counters (migration 019)', () => {
  it('equal the insert triggers’ counters for the same rows, small and big bodies, duplicates not counted', async () => {
    const api = await connectorInstallation(ctx.db, 'BCNT1');
    const plain = await connectorInstallation(ctx.db, 'BCNT2');
    await countDaysIn('Europe/Paris', api.id, plain.id);
    const records = Array.from({ length: 120 }, (_, n) =>
      importRecord({
        DateHeure: spread(n),
        Etat: (n % 3) - 1,
        ...(n % 7 === 0 ? { Log: 'Erreur Ã  lâ€™import' } : {}),
      }),
    );
    // A small body, then the same records again with new ones (duplicates across batches and
    // within the batch).
    let res = await connectorCall(ctx.app, 'POST', '/import-records', api.token, {
      records: records.slice(0, 80),
    });
    expect(res.json()).toEqual({ inserted: 80, duplicates: 0 });
    const again = [...records.slice(60, 120), records[100]];
    res = await connectorCall(ctx.app, 'POST', '/import-records', api.token, { records: again });
    expect(res.json()).toEqual({ inserted: 40, duplicates: 21 });
    // A big body: a worker thread (PostgreSQL: written as checked; embedded: values apart).
    const big = Array.from({ length: 320 }, (_, n) =>
      importRecord({
        DateHeure: spread(n + 500),
        Etat: n % 4 === 0 ? -1 : 1,
        Enreg: `<a>${'é'.repeat(1800)}${n}</a>`,
      }),
    );
    expect(Buffer.byteLength(JSON.stringify({ records: big }))).toBeGreaterThan(OFFLOAD_MIN_BYTES);
    res = await connectorCall(ctx.app, 'POST', '/import-records', api.token, { records: big });
    expect(res.json()).toEqual({ inserted: 320, duplicates: 0 });
    const txs = Array.from({ length: 700 }, (_, n) =>
      transaction({ DateHeureTrt: spread(n), Err: n % 6 === 0 ? 1 : 0, IDTablette: `tab${n % 4}` }),
    );
    res = await connectorCall(ctx.app, 'POST', '/transactions', api.token, {
      transactions: txs.slice(0, 650),
    });
    expect(res.json()).toEqual({ inserted: 650, duplicates: 0 });
    res = await connectorCall(ctx.app, 'POST', '/transactions', api.token, { transactions: txs.slice(600) });
    expect(res.json()).toEqual({ inserted: 50, duplicates: 50 });

    await copyByPlainInsert(api.id, plain.id);
    const expected = await counters(plain.id);
    // Nothing was written apart on PostgreSQL; on the embedded database the big records' XML was,
    // and their storage is counted with the values apart (not by these tables' triggers).
    if (ctx.db.kind === 'postgres') expect(await counters(api.id)).toEqual(expected);
    else {
      const { installation_storage: _storage, ...rest } = await counters(api.id);
      const { installation_storage: _expectedStorage, ...expectedRest } = expected;
      expect(rest).toEqual(expectedRest);
    }
    expect(expected.import_record_quarter_counts?.length).toBeGreaterThan(100);
    expect(expected.terminal_hour_counts?.length).toBeGreaterThan(100);
  });

  it('a refused batch counts nothing; the next plain INSERT is counted by its triggers again', async () => {
    const a = await connectorInstallation(ctx.db, 'BCNT3');
    const before = await counters(a.id);
    const batch = [importRecord(), importRecord(), importRecord({ DateHeure: 'hier' })];
    const res = await connectorCall(ctx.app, 'POST', '/import-records', a.token, { records: batch });
    expect(res.statusCode).toBe(400);
    expect(await counters(a.id)).toEqual(before);
    // The setting was the batch's transaction's only: plain writes are counted on every connection.
    for (let i = 0; i < 4; i++) {
      await ctx.db.query(
        `INSERT INTO transaction_logs (installation_id, tx_id, err, date_heure_trt, num_transaction, type_doc,
           ref_doc, id_tablette, libelle_tablette, log, received_at)
         VALUES ($1, $2, 1, '2025-11-14T08:00:00Z', '1', 'DEVIS', 'R', 'tab', 'Tablette', 'log', now())`,
        [a.id, `PLAIN-${i}`],
      );
    }
    const [row] = await ctx.db.query<{ total: number; errors: number }>(
      `SELECT sum(total)::int AS total, sum(errors)::int AS errors FROM transaction_log_quarter_counts
       WHERE installation_id = $1`,
      [a.id],
    );
    expect(row).toEqual({ total: 4, errors: 4 });
  });
});

/**
 * The counting functions read the batch's rows by their primary key only (migration 021): never
 * the index entries of the installation's whole history, whose size would then set the cost of
 * every batch. Their plans, from PostgreSQL's auto_explain (its nested statements, as notices),
 * on calls enough for plpgsql to keep a generic plan; in a transaction rolled back. The history is
 * not analysed (a table grown since its last ANALYZE): 019's functions then combined the
 * installation's index with the primary key (BitmapAnd), 10 ms for 5 rows among 20 000.
 */
describe.runIf(usingPostgres())('batch counters read only the batch’s rows', () => {
  async function plansOfCounting(
    table: 'import_records' | 'transaction_logs',
    insertHistory: string,
    insertBatch: string,
  ): Promise<string[]> {
    const a = await connectorInstallation(ctx.db, table === 'import_records' ? 'BCNT4' : 'BCNT5');
    await ctx.db.query(insertHistory, [a.id]);
    const [current] = await ctx.db.query<{ schema: string }>('SELECT current_schema() AS schema');
    const client = new pg.Client({
      connectionString: process.env.TEST_DATABASE_URL,
      options: `-c search_path=${current?.schema ?? ''},public`,
    });
    const plans: string[] = [];
    client.on('notice', (notice) => plans.push(notice.message ?? ''));
    await client.connect();
    try {
      await client.query("BEGIN; SET LOCAL synchro.batch_counts = 'on'");
      const ids = (await client.query<{ id: string }>(insertBatch, [a.id])).rows.map((r) => r.id);
      expect(ids).toHaveLength(5);
      await client.query(
        `LOAD 'auto_explain'; SET LOCAL auto_explain.log_min_duration = 0;
         SET LOCAL auto_explain.log_nested_statements = on; SET LOCAL auto_explain.log_level = notice`,
      );
      const counter = table === 'import_records' ? 'import_records_added' : 'transaction_logs_added';
      for (let call = 0; call < 7; call++) {
        await client.query({
          name: 'count',
          text: `SELECT ${counter}($1, $2::bigint[])`,
          values: [a.id, ids],
        });
      }
      await client.query('ROLLBACK');
    } finally {
      await client.end();
    }
    // The plans of the statement that reads the batch's rows (one per call).
    return plans.filter((plan) => plan.includes('WITH new_rows'));
  }

  const expectPrimaryKeyOnly = (plans: string[], table: string) => {
    expect(plans).toHaveLength(7);
    for (const plan of plans) {
      expect(plan).toContain(`${table}_pkey`);
      expect(plan).not.toContain(`${table}_newest_idx`);
      expect(plan).not.toContain('BitmapAnd');
    }
  };

  it('import records', async () => {
    const plans = await plansOfCounting(
      'import_records',
      `INSERT INTO import_records (installation_id, id_interne, type_enreg, ref_doc, date_heure, num_ligne,
         type_element, etat, log, enreg, has_file, received_at, updated_at)
       SELECT $1, 'H' || n, 'Devis', 'R' || n, '2025-01-01T00:00:00Z'::timestamptz + n * interval '1 minute', 0,
         'Création', 1, '', '<a/>', false, now(), now()
       FROM generate_series(1, 20000) n`,
      `INSERT INTO import_records (installation_id, id_interne, type_enreg, ref_doc, date_heure, num_ligne,
         type_element, etat, log, enreg, has_file, received_at, updated_at)
       SELECT $1, 'B' || n, 'Devis', 'R' || n, '2025-06-01T00:00:00Z', 0, 'Création', 1, '', '<a/>', false, now(), now()
       FROM generate_series(1, 5) n RETURNING id`,
    );
    expectPrimaryKeyOnly(plans, 'import_records');
  });

  it('transactions', async () => {
    const insert = (prefix: string, count: number, returning: string) =>
      `INSERT INTO transaction_logs (installation_id, tx_id, err, date_heure_trt, num_transaction, type_doc,
         ref_doc, id_tablette, libelle_tablette, log, received_at)
       SELECT $1, '${prefix}' || n, 0, '2025-01-01T00:00:00Z'::timestamptz + n * interval '1 minute', '1', 'DEVIS',
         'R', 'tab', 'Tablette', 'log', now()
       FROM generate_series(1, ${count}) n ${returning}`;
    const plans = await plansOfCounting(
      'transaction_logs',
      insert('H', 20000, ''),
      insert('B', 5, 'RETURNING id'),
    );
    expectPrimaryKeyOnly(plans, 'transaction_logs');
  });
});
