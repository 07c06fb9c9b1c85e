/**
 * The cases measured on both lists, and the raw SQL the server runs for each (the statements of
 * apps/server/src/domain/history-list.ts, copied here: the bench imports no server code). The
 * bench checks that the raw SQL and the API give the same rows, so a copy that drifted would show.
 */

export type ListName = 'history' | 'trace';

export interface ListSpec {
  name: ListName;
  path: string;
  table: string;
  time: string;
  error: string;
  dayCounts: string;
  idColumn: string;
  columns: string;
  /** Query parameter names of the filters. */
  params: { date: string; search: string };
  /** JSON answer → the ids of its rows and its paging. */
  rowsOf: (body: unknown) => string[];
  pagingOf: (body: unknown) => { total: number; totalPages: number; nextCursor: string | null };
}

interface HistoryBody {
  data: { IDInterne: string }[];
  total: number;
  totalPages: number;
  nextCursor: string | null;
}
interface TraceBody {
  logs: { ID: string }[];
  pagination: { total: number; totalPages: number; nextCursor: string | null };
}

export const LISTS: Record<ListName, ListSpec> = {
  history: {
    name: 'history',
    path: '/api/sync-history',
    table: 'import_records',
    time: 'date_heure',
    error: 'etat = -1',
    dayCounts: 'import_record_day_counts',
    idColumn: 'id_interne',
    columns: `id_interne AS "IDInterne", etat AS "Etat", type_enreg AS "TypeEnreg", ref_doc AS "RefDoc",
  date_heure AS "dateHeure", num_ligne AS "NumLigne", type_element AS "TypeElement", has_file AS "hasFile",
  octet_length(log) > 0 AS "hasLog"`,
    params: { date: 'date', search: 'search' },
    rowsOf: (body) => (body as HistoryBody).data.map((r) => r.IDInterne),
    pagingOf: (body) => body as HistoryBody,
  },
  trace: {
    name: 'trace',
    path: '/api/transaction-logs',
    table: 'transaction_logs',
    time: 'date_heure_trt',
    error: 'err = 1',
    dayCounts: 'transaction_log_day_counts',
    idColumn: 'tx_id',
    columns: `tx_id AS "ID", err AS "Err", date_heure_trt AS "dateHeureTrt", num_transaction AS "NumTransaction",
  type_doc AS "TypeDoc", ref_doc AS "RefDoc", id_tablette AS "IDTablette", libelle_tablette AS "LibelleTablette",
  left(log, 2000) AS "logHead", octet_length(log) > octet_length(left(log, 2000)) AS "logCut"`,
    params: { date: 'dateFilter', search: 'searchText' },
    rowsOf: (body) => (body as TraceBody).logs.map((r) => r.ID),
    pagingOf: (body) => (body as TraceBody).pagination,
  },
};

export interface Statement {
  sql: string;
  params: unknown[];
}

export interface CaseSpec {
  label: string;
  query: Record<string, string>;
  /** The statements the server runs (besides the session check and BEGIN/COMMIT). */
  statements: Statement[];
  /** Ids of the statement that reads the rows (index in `statements`); newest first after `reverse`. */
  rowsFrom: number;
  reverse: boolean;
  /**
   * A first page: the rows are read first (statement 0) and the total (statement 1) only when
   * there are more than a page of them, as the server does.
   */
  countIfMore?: boolean;
}

const SEARCH_COUNT_MAX = 1_000;
const PAGE = 25;

function rowsSql(l: ListSpec, where: string, dir: 'DESC' | 'ASC', extra = '') {
  return `SELECT ${l.columns}, id::text AS "rowId",
      to_char(${l.time} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "rowKey"
    FROM ${l.table} WHERE ${where}${extra} ORDER BY ${l.time} ${dir}, id ${dir} OFFSET $OFF LIMIT $LIM`;
}

/** Numbers `$OFF`/`$LIM` after the given parameters. */
function withPaging(sql: string, params: unknown[], offset: number, limit: number): Statement {
  const n = params.length;
  return {
    sql: sql.replace('$OFF', `$${n + 1}`).replace('$LIM', `$${n + 2}`),
    params: [...params, offset, limit],
  };
}

const counterSum = (l: ListSpec, column: 'total' | 'errors', inst: string): Statement => ({
  sql: `SELECT coalesce(sum(${column}), 0)::int AS n FROM ${l.dayCounts} WHERE installation_id = $1`,
  params: [inst],
});

export interface CaseInputs {
  installationId: string;
  total: number;
  errors: number;
  /** [from, to) of the measured day, ISO UTC, and the day itself (yyyy-MM-dd, Paris). */
  day: { date: string; from: string; to: string };
  rare: string;
  common: string;
  /** For the middle page: the day and the rows before it in the running sum (looked up once). */
  middle: { page: number; day: string; before: number };
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}

/**
 * The server's search condition on $2 (containsCondition of domain/history-list.ts): the pattern
 * of the term's side-by-side pieces of three ASCII letters or digits selects, strpos checks the
 * term; a term with fewer than two pieces is matched by its own LIKE pattern.
 */
function pieces(term: string): string[] {
  const found: string[] = [];
  for (const [run] of term.matchAll(/[A-Za-z0-9]{3,}/g)) {
    for (let i = 0; i + 3 <= run.length; i += 3) found.push(run.slice(i, i + 3));
  }
  return found.slice(-6);
}

/** Also the audit journal's (bench/audit/run.ts): the same condition on the same column name. */
export function contains(term: string): string {
  const p = pieces(term);
  if (p.length < 2) return `search_text LIKE '%' || history_fold($2) || '%'`;
  const pattern = p.map((x) => `history_fold('${x}')`).join(` || '%' || `);
  return `search_text LIKE '%' || ${pattern} || '%' AND strpos(search_text, history_fold($2)) > 0`;
}

export const containsParam = (term: string) => (pieces(term).length < 2 ? escapeLike(term) : term);

export function cases(l: ListSpec, c: CaseInputs): CaseSpec[] {
  const inst = c.installationId;
  const base = 'installation_id = $1';
  const lastPage = Math.ceil(c.total / PAGE);
  const lastRows = c.total - (lastPage - 1) * PAGE;
  const search = (term: string): CaseSpec => ({
    label: `search « ${term} »`,
    query: { [l.params.search]: term },
    statements: [
      withPaging(
        rowsSql(l, `${base} AND ${contains(term)}`, 'DESC'),
        [inst, containsParam(term)],
        0,
        PAGE + 1,
      ),
      {
        sql: `SELECT count(*)::int AS n FROM (
       SELECT 1 FROM ${l.table} WHERE ${base} AND ${contains(term)} ORDER BY ${l.time} DESC, id DESC LIMIT ${SEARCH_COUNT_MAX + 1}) AS s`,
        params: [inst, containsParam(term)],
      },
    ],
    rowsFrom: 0,
    reverse: false,
    countIfMore: true,
  });
  const middleOffset = (c.middle.page - 1) * PAGE;
  return [
    {
      label: 'first page',
      query: {},
      statements: [withPaging(rowsSql(l, base, 'DESC'), [inst], 0, PAGE + 1), counterSum(l, 'total', inst)],
      rowsFrom: 0,
      reverse: false,
      countIfMore: true,
    },
    {
      label: `last page (${lastPage.toLocaleString('fr-FR')})`,
      query: { page: String(lastPage) },
      statements: [counterSum(l, 'total', inst), withPaging(rowsSql(l, base, 'ASC'), [inst], 0, lastRows)],
      rowsFrom: 1,
      reverse: true,
    },
    {
      label: `page ${c.middle.page.toLocaleString('fr-FR')} (middle)`,
      query: { page: String(c.middle.page) },
      statements: [
        counterSum(l, 'total', inst),
        {
          sql: `SELECT day::text AS day, before::int AS before FROM (
       SELECT day, n, sum(n) OVER (ORDER BY day DESC ROWS UNBOUNDED PRECEDING) - n AS before
       FROM (SELECT day, total AS n FROM ${l.dayCounts} WHERE installation_id = $1) AS c
       WHERE n > 0
     ) AS w WHERE before + n > $2 ORDER BY day DESC LIMIT 1`,
          params: [inst, middleOffset],
        },
        withPaging(
          rowsSql(l, base, 'DESC', ` AND ${l.time} < ($2::date + 1)::timestamp AT TIME ZONE 'UTC'`),
          [inst, c.middle.day],
          middleOffset - c.middle.before,
          PAGE + 1,
        ),
      ],
      rowsFrom: 2,
      reverse: false,
    },
    {
      label: 'errors only',
      query: { errorOnly: 'true' },
      statements: [
        withPaging(rowsSql(l, `${base} AND ${l.error}`, 'DESC'), [inst], 0, PAGE + 1),
        counterSum(l, 'errors', inst),
      ],
      rowsFrom: 0,
      reverse: false,
      countIfMore: true,
    },
    {
      label: `one day (${c.day.date})`,
      query: { [l.params.date]: c.day.date },
      statements: [
        withPaging(
          rowsSql(l, `${base} AND ${l.time} >= $2::timestamptz AND ${l.time} < $3::timestamptz`, 'DESC'),
          [inst, c.day.from, c.day.to],
          0,
          PAGE + 1,
        ),
        {
          sql: `SELECT count(*)::int AS n FROM ${l.table} WHERE ${base} AND ${l.time} >= $2::timestamptz AND ${l.time} < $3::timestamptz`,
          params: [inst, c.day.from, c.day.to],
        },
      ],
      rowsFrom: 0,
      reverse: false,
      countIfMore: true,
    },
    search(c.rare),
    search(c.common),
  ];
}
