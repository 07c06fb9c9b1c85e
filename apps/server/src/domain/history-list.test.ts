import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInstallation, testApp } from '../../test/helpers/app.ts';
import { openTestDb } from '../../test/helpers/db.ts';
import { insertRecords, insertRecordSeries, insertTransactionSeries } from '../../test/helpers/history.ts';
import type { Db } from '../db/types.ts';
import { containsCondition, containsPattern, indexPieces } from './history-list.ts';

/** The day counters of migration 004 against what the tables hold, after every kind of write. */

let db: Db;

beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db.close();
});

let counter = 0;
const fresh = async () => (await addInstallation(db, { syncId: `CNT${++counter}` })).installation.id;

async function countersAgree(installationId: string) {
  const recordCounts = await db.query<{ day: string; total: number; errors: number }>(
    `SELECT day::text AS day, total, errors FROM import_record_day_counts
     WHERE installation_id = $1 AND total <> 0 ORDER BY day`,
    [installationId],
  );
  const recordTruth = await db.query<{ day: string; total: number; errors: number }>(
    `SELECT (date_heure AT TIME ZONE 'UTC')::date::text AS day, count(*)::int AS total,
            (count(*) FILTER (WHERE etat = -1))::int AS errors
     FROM import_records WHERE installation_id = $1 GROUP BY 1 ORDER BY 1`,
    [installationId],
  );
  expect(recordCounts).toEqual(recordTruth);
  const txCounts = await db.query(
    `SELECT day::text AS day, total, errors FROM transaction_log_day_counts
     WHERE installation_id = $1 AND total <> 0 ORDER BY day`,
    [installationId],
  );
  const txTruth = await db.query(
    `SELECT (date_heure_trt AT TIME ZONE 'UTC')::date::text AS day, count(*)::int AS total,
            (count(*) FILTER (WHERE err = 1))::int AS errors
     FROM transaction_logs WHERE installation_id = $1 GROUP BY 1 ORDER BY 1`,
    [installationId],
  );
  expect(txCounts).toEqual(txTruth);
  return recordTruth.length + txTruth.length;
}

describe('day counters (statement triggers)', () => {
  it('follow multi-row inserts, state changes, re-dating, deletes', async () => {
    const id = await fresh();
    const other = await fresh();
    await insertRecordSeries(db, id, {
      prefix: 'A',
      count: 500,
      newest: '2025-03-31T02:00:00Z',
      stepMinutes: 17,
      errorEvery: 4,
    });
    await insertRecordSeries(db, other, {
      prefix: 'A',
      count: 50,
      newest: '2025-03-31T02:00:00Z',
      stepMinutes: 17,
    });
    await insertTransactionSeries(db, id, {
      prefix: 'T',
      count: 300,
      newest: '2025-03-31T02:00:00Z',
      stepMinutes: 31,
      errorEvery: 5,
    });
    expect(await countersAgree(id)).toBeGreaterThan(10);
    await countersAgree(other);

    await db.query(
      `UPDATE import_records SET etat = -1 WHERE installation_id = $1 AND id_interne LIKE 'A-1%'`,
      [id],
    );
    await db.query(
      `UPDATE import_records SET etat = 0 WHERE installation_id = $1 AND id_interne LIKE 'A-2%'`,
      [id],
    );
    await db.query(
      `UPDATE transaction_logs SET err = 1 - err WHERE installation_id = $1 AND tx_id LIKE 'T-1%'`,
      [id],
    );
    await countersAgree(id);

    // Re-dated across days, and an update that touches neither state nor time.
    await db.query(
      `UPDATE import_records SET date_heure = date_heure - interval '3 days' WHERE installation_id = $1 AND id_interne LIKE 'A-3%'`,
      [id],
    );
    await db.query(`UPDATE import_records SET log = 'x' WHERE installation_id = $1`, [id]);
    await countersAgree(id);

    await db.query(`DELETE FROM import_records WHERE installation_id = $1 AND id_interne LIKE 'A-4%'`, [id]);
    await db.query(`DELETE FROM transaction_logs WHERE installation_id = $1 AND tx_id LIKE 'T-2%'`, [id]);
    await countersAgree(id);
    await countersAgree(other);
  });

  it('deleting an installation removes its rows and counters without error', async () => {
    const id = await fresh();
    await insertRecordSeries(db, id, {
      prefix: 'D',
      count: 100,
      newest: '2025-01-10T00:00:00Z',
      stepMinutes: 60,
    });
    await insertTransactionSeries(db, id, {
      prefix: 'D',
      count: 100,
      newest: '2025-01-10T00:00:00Z',
      stepMinutes: 60,
    });
    await db.query('DELETE FROM installations WHERE id = $1', [id]);
    const [left] = await db.query<{ n: number }>(
      `SELECT ((SELECT count(*) FROM import_record_day_counts WHERE installation_id = $1)
             + (SELECT count(*) FROM transaction_log_day_counts WHERE installation_id = $1))::int AS n`,
      [id],
    );
    expect(left?.n).toBe(0);
  });

  it('count what the connector API stores, batch by batch', async () => {
    const app = await testApp(db);
    try {
      const { installation, connectorToken } = await addInstallation(db, { syncId: `CNT${++counter}` });
      const record = (n: number, Etat: number) => ({
        IDInterne: `API-${n}`,
        TypeEnreg: 'DocumentDEVIS',
        RefDoc: `XX_${n}`,
        DateHeure: `2025-11-${String(10 + (n % 3)).padStart(2, '0')}T09:12:00`,
        NumLigne: 1,
        TypeElement: 'CrÃ©ation',
        Etat,
        Enreg: '<SyncNuxiDev><Table>devis</Table></SyncNuxiDev>',
      });
      const res = await app.inject({
        method: 'POST',
        url: '/api/connector/v1/import-records',
        headers: { authorization: `Bearer ${connectorToken}` },
        payload: { records: [record(1, 0), record(2, -1), record(3, 1), record(4, -1)] },
      });
      expect(res.statusCode, res.body).toBe(200);
      await countersAgree(installation.id);
      const [row] = await db.query<{ total: number; errors: number }>(
        `SELECT sum(total)::int AS total, sum(errors)::int AS errors FROM import_record_day_counts WHERE installation_id = $1`,
        [installation.id],
      );
      expect(row).toEqual({ total: 4, errors: 2 });
      // The folded search text of a record sent in the connector's convention.
      const [text] = await db.query<{ search_text: string }>(
        `SELECT search_text FROM import_records WHERE installation_id = $1 AND id_interne = 'API-1'`,
        [installation.id],
      );
      expect(text?.search_text).toBe('xx_1\u001fdocumentdevis\u001fcreation');
    } finally {
      await app.close();
    }
  });

  it('a record inserted with explicit values is counted on its UTC day', async () => {
    const id = await fresh();
    await insertRecords(db, id, [
      { IDInterne: 'LATE', DateHeure: '2025-06-30T23:30:00+00:00', Etat: -1 },
      { IDInterne: 'EARLY', DateHeure: '2025-07-01T00:30:00+02:00' }, // 2025-06-30T22:30Z
    ]);
    const rows = await db.query(
      `SELECT day::text AS day, total, errors FROM import_record_day_counts WHERE installation_id = $1`,
      [id],
    );
    expect(rows).toEqual([{ day: '2025-06-30', total: 2, errors: 1 }]);
  });
});

describe('containsPattern', () => {
  it('folds the term, then escapes the three LIKE characters (full-width forms included) and nothing else', async () => {
    const pattern = async (term: string) =>
      (await db.query<{ p: string }>(`SELECT ${containsPattern(1)} AS p`, [term]))[0]?.p;
    expect(await pattern('50%_a\\b*?')).toBe('%50\\%\\_a\\\\b*?%');
    expect(await pattern('Été ５０％ ＿ ＼')).toBe('%ete 50\\% \\_ \\\\%');
  });
});

describe('containsCondition', () => {
  it('index pieces: three-character pieces side by side of each ASCII letter-and-digit run, in order, the last six', () => {
    expect(indexPieces('XX_358647926811')).toEqual(['358', '647', '926', '811']);
    expect(indexPieces('devis')).toEqual(['dev']);
    expect(indexPieces('Été DEVIS-42')).toEqual(['DEV']);
    expect(indexPieces('ab_cd 12')).toEqual([]);
    expect(indexPieces('abcdefghijklmnopqrstuvwxyz')).toEqual(['ghi', 'jkl', 'mno', 'pqr', 'stu', 'vwx']);
    expect(indexPieces("x'); DROP TABLE t; --")).toEqual(['DRO', 'TAB']);
  });

  it('selects exactly the rows the plain LIKE of the folded term selects', async () => {
    const texts = [
      'nuxidevxx_358647926811\u001fDocumentDEVIS',
      'XX_358647926812 devis',
      '50%_a\\b*? remise',
      'Été ５０％ ＿ ＼ œuvre',
      'ŒUVRE complète',
      'İstanbul ﬀabc',
      'abc123déf',
      "o'brien DROP TABLE",
      'tablette-07 pixel 8',
    ];
    const terms = [
      'XX_358647926811',
      '358647926811',
      'devis',
      'DEVIS',
      '50%_a',
      '％ ＿',
      'oeuvre',
      'istanbul',
      'ffabc',
      'ABC123DEF',
      "o'brien drop",
      "x'); DROP TABLE t; --",
      'tablette-07',
      'ab',
      '%',
    ];
    const values = texts.map((_, i) => `($${i + 2})`).join(', ');
    for (const term of terms) {
      const select = (condition: string) =>
        db.query<{ t: string }>(
          `SELECT t FROM (SELECT history_fold(v) AS folded, v AS t FROM (VALUES ${values}) AS x(v)) AS y
           WHERE ${condition} ORDER BY t`,
          [term, ...texts],
        );
      const expected = await select(`folded LIKE ${containsPattern(1)}`);
      expect(await select(containsCondition('folded', term, 1)), term).toEqual(expected);
    }
    // The cases above find something: the comparison is not between two empty lists.
    const found = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (VALUES ${values}) AS x(v) WHERE ${containsCondition('history_fold(v)', 'XX_358647926811', 1)}`,
      ['XX_358647926811', ...texts],
    );
    expect(found[0]?.n).toBe(1);
  });
});
