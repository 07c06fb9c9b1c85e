import type { Db } from '../../src/db/types.ts';

/**
 * Rows of the import history and the transaction trace written straight with SQL, as the
 * connector API stores them (short texts decoded; IDInterne, Enreg and logs as the connector sent
 * them), so that a test controls every time and value.
 */

export interface RecordSeed {
  IDInterne: string;
  DateHeure: string;
  Etat?: -1 | 0 | 1;
  TypeEnreg?: string;
  RefDoc?: string;
  NumLigne?: number;
  TypeElement?: string;
  Log?: string;
  Enreg?: string;
  file?: { name: string; content: Buffer };
}

export const SIMPLE_ENREG =
  '<SyncNuxiDev><Table>devis</Table><Enregistrement><Code>X</Code></Enregistrement></SyncNuxiDev>';

export async function insertRecords(
  db: Db,
  installationId: string,
  rows: readonly RecordSeed[],
): Promise<void> {
  for (const r of rows) {
    const [row] = await db.query<{ id: string }>(
      `INSERT INTO import_records (installation_id, id_interne, type_enreg, ref_doc, date_heure, num_ligne,
         type_element, etat, log, enreg, has_file)
       VALUES ($1, $2, $3, $4, $5::timestamptz, $6, $7, $8, $9, $10, $11) RETURNING id::text AS id`,
      [
        installationId,
        r.IDInterne,
        r.TypeEnreg ?? 'DocumentDEVIS',
        r.RefDoc ?? `REF-${r.IDInterne}`,
        r.DateHeure,
        r.NumLigne ?? 1,
        r.TypeElement ?? 'Création',
        r.Etat ?? 1,
        r.Log ?? '',
        r.Enreg ?? SIMPLE_ENREG,
        r.file !== undefined,
      ],
    );
    if (r.file && row) {
      await db.query(
        `INSERT INTO import_record_files (record_id, installation_id, name, size, content)
         SELECT $1, installation_id, $2, $3, $4 FROM import_records WHERE id = $1`,
        [row.id, r.file.name, r.file.content.length, r.file.content],
      );
    }
  }
}

/**
 * `count` records (`<prefix>-<n>`) one every `stepMinutes` back from `newest`, every
 * `errorEvery`-th in error: one statement, for paging over thousands of rows.
 */
export async function insertRecordSeries(
  db: Db,
  installationId: string,
  options: { prefix: string; count: number; newest: string; stepMinutes: number; errorEvery?: number },
): Promise<void> {
  await db.query(
    `INSERT INTO import_records (installation_id, id_interne, type_enreg, ref_doc, date_heure, etat, enreg)
     SELECT $1, $2 || '-' || i, 'DocumentDEVIS', 'S' || i,
            $3::timestamptz - make_interval(mins => (i - 1) * $5),
            CASE WHEN $6 > 0 AND i % $6 = 0 THEN -1 ELSE 1 END, $7
     FROM generate_series(1, $4::int) AS i`,
    [
      installationId,
      options.prefix,
      options.newest,
      options.count,
      options.stepMinutes,
      options.errorEvery ?? 0,
      SIMPLE_ENREG,
    ],
  );
}

export interface TransactionSeed {
  ID: string;
  DateHeureTrt: string;
  Err?: 0 | 1;
  NumTransaction?: string;
  TypeDoc?: string;
  RefDoc?: string;
  IDTablette?: string;
  LibelleTablette?: string;
  Log?: string;
}

export async function insertTransactions(
  db: Db,
  installationId: string,
  rows: readonly TransactionSeed[],
): Promise<void> {
  for (const t of rows) {
    await db.query(
      `INSERT INTO transaction_logs (installation_id, tx_id, err, date_heure_trt, num_transaction, type_doc, ref_doc,
         id_tablette, libelle_tablette, log)
       VALUES ($1, $2, $3, $4::timestamptz, $5, $6, $7, $8, $9, $10)`,
      [
        installationId,
        t.ID,
        t.Err ?? 0,
        t.DateHeureTrt,
        t.NumTransaction ?? '1',
        t.TypeDoc ?? 'DEVIS',
        t.RefDoc ?? '',
        t.IDTablette ?? 'abcdef0123456789',
        t.LibelleTablette ?? 'pixel 8',
        t.Log ?? '',
      ],
    );
  }
}

export async function insertTransactionSeries(
  db: Db,
  installationId: string,
  options: { prefix: string; count: number; newest: string; stepMinutes: number; errorEvery?: number },
): Promise<void> {
  await db.query(
    `INSERT INTO transaction_logs (installation_id, tx_id, err, date_heure_trt, num_transaction, type_doc, log)
     SELECT $1, $2 || '-' || i, CASE WHEN $6 > 0 AND i % $6 = 0 THEN 1 ELSE 0 END,
            $3::timestamptz - make_interval(mins => (i - 1) * $5), i::text, 'DEVIS', 'ligne 1'
     FROM generate_series(1, $4::int) AS i`,
    [
      installationId,
      options.prefix,
      options.newest,
      options.count,
      options.stepMinutes,
      options.errorEvery ?? 0,
    ],
  );
}

export type Query = Record<string, string | number | boolean | undefined>;

/** A path with its query string (absent values left out). */
export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}
