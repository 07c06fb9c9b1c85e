/**
 * The import records' INSERT as the connector API sends it (apps/server/src/features/connector/
 * import-records.ts): its text for a number of rows and the parameters of bench rows, for the
 * benches that play the server's statements themselves (statements.ts, counters.ts).
 */
import { storedRecord } from './rows.ts';

const COLUMNS = `installation_id, id_interne, type_enreg, ref_doc, date_heure, num_ligne,
    type_element, etat, log, log_blob, enreg, enreg_blob, has_file, sent_texts, received_at, updated_at`;
const RECORD_VALUES =
  '$1 ? ? ? ?::timestamptz ?::int ? ?::smallint ? ?::bigint ? ?::bigint ?::boolean ?::jsonb $2 $2'.split(' ');

/**
 * The server's VALUES list (apps/server/src/db/multi-row.ts, which a bench may not import): `?` is
 * the row's next parameter.
 */
function valuesList(rowCount: number, shared: number, row: readonly string[]): string {
  const perRow = row.filter((e) => e.startsWith('?')).length;
  const tuples: string[] = [];
  for (let r = 0; r < rowCount; r += 1) {
    let next = shared + 1 + r * perRow;
    tuples.push(`(${row.map((e) => (e.startsWith('?') ? `$${next++}${e.slice(1)}` : e)).join(', ')})`);
  }
  return tuples.join(', ');
}

export const apiStatement = (count: number) =>
  `INSERT INTO import_records (${COLUMNS}) VALUES ${valuesList(count, 2, RECORD_VALUES)}
   ON CONFLICT (installation_id, id_interne) DO NOTHING RETURNING id, id_interne AS "idInterne"`;

/** $1 the installation, $2 the time of receipt, then each record's 13 values (rows.ts, record n). */
export function apiParams(installationId: string, ns: readonly number[], prefix: string): unknown[] {
  const params: unknown[] = [installationId, new Date()];
  for (const n of ns) {
    const [, idInterne, typeEnreg, refDoc, dateHeure, numLigne, typeElement, etat, log, enreg] = storedRecord(
      installationId,
      n,
      prefix,
    );
    params.push(
      idInterne,
      typeEnreg,
      refDoc,
      dateHeure,
      numLigne,
      typeElement,
      etat,
      log,
      null,
      enreg,
      null,
      false,
      null,
    );
  }
  return params;
}
