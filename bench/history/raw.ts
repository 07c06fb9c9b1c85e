/** What the history benches share: the case inputs read with raw SQL, a case's statements, percentiles. */
import type { CaseInputs, CaseSpec, ListSpec } from './cases.ts';
import { SYNC_ID, type RawDb } from './targets.ts';

const ZONE = 'Europe/Paris'; // Planifications/FuseauHoraire of the demo configuration

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

export async function runStatements(db: RawDb, spec: CaseSpec): Promise<Record<string, unknown>[][]> {
  const out: Record<string, unknown>[][] = [];
  for (const s of spec.statements) {
    // A first page that holds everything is its own total (the server skips the count then).
    if (spec.countIfMore && out.length === 1 && (out[0]?.length ?? 0) <= 25) break;
    out.push(await db.query<Record<string, unknown>>(s.sql, s.params));
  }
  return out;
}

/** What both sides need to build the cases: read once with raw SQL before the server starts. */
export async function inputsOf(db: RawDb, l: ListSpec, middlePage: number): Promise<CaseInputs> {
  const [inst] = await db.query<{ id: string }>('SELECT id FROM installations WHERE sync_id = $1', [SYNC_ID]);
  if (!inst) throw new Error('installation du banc introuvable');
  const installationId = inst.id;
  const [counts] = await db.query<{ total: number; errors: number }>(
    `SELECT sum(total)::int AS total, sum(errors)::int AS errors FROM ${l.dayCounts} WHERE installation_id = $1`,
    [installationId],
  );
  // One day a year back, in the display zone.
  const [day] = await db.query<{ date: string; from: string; to: string }>(
    `SELECT d::text AS date,
            to_char((d::timestamp AT TIME ZONE $1) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "from",
            to_char(((d + 1)::timestamp AT TIME ZONE $1) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "to"
     FROM (SELECT (now() AT TIME ZONE $1)::date - 365 AS d) AS x`,
    [ZONE],
  );
  const rareSql =
    l.name === 'history'
      ? `SELECT ref_doc AS term FROM import_records WHERE installation_id = $1 AND type_enreg = 'DocumentDEVIS' ORDER BY id OFFSET $2 LIMIT 1`
      : `SELECT ref_doc AS term FROM transaction_logs WHERE installation_id = $1 AND ref_doc <> '' ORDER BY id OFFSET $2 LIMIT 1`;
  // A reference from the older part of the history, in a quarter of the rows of its kind.
  const [rare] = await db.query<{ term: string }>(rareSql, [
    installationId,
    Math.floor((counts?.total ?? 0) / 10),
  ]);
  const offset = (middlePage - 1) * 25;
  const [middle] = await db.query<{ day: string; before: number }>(
    `SELECT day::text AS day, before::int AS before FROM (
       SELECT day, n, sum(n) OVER (ORDER BY day DESC ROWS UNBOUNDED PRECEDING) - n AS before
       FROM (SELECT day, total AS n FROM ${l.dayCounts} WHERE installation_id = $1) AS c WHERE n > 0
     ) AS w WHERE before + n > $2 ORDER BY day DESC LIMIT 1`,
    [installationId, offset],
  );
  if (!counts || !day || !rare || !middle) throw new Error('données du banc incomplètes');
  return {
    installationId,
    total: counts.total,
    errors: counts.errors,
    day,
    rare: rare.term,
    common: 'devis',
    middle: { page: middlePage, ...middle },
  };
}
