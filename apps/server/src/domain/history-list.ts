import { HISTORY_LIMITS, type THistoryPaging } from '@synchro/contracts';
import type { Db, Queryable } from '../db/types.ts';
import type { DayRange } from '../time/day-range.ts';
import { cursorScope, decodeCursor, encodeCursor, type CursorPosition } from './history-cursor.ts';

/**
 * The list engine of the import history and the transaction trace (docs/history.md): newest
 * first, filters (errors only, one day, a literal search), a total that never scans a million
 * rows, and pages that cost what the first page costs wherever they are:
 *
 * - 'Suivant' / 'Précédent' read from the edge of the page shown (keyset cursor);
 * - a page nearer the oldest end is read from there, in reverse (the last page is a first page);
 * - a page far from both ends, without search or day, starts in the UTC day where the running
 *   sum of the day counters reaches its offset (a few hundred rows skipped, not a million).
 */

/** A history table and the SQL names the engine needs (constants, never user input). */
export interface HistoryTable {
  /** Names the list in cursors and its export's audit action (`<name>.export`). */
  name: 'import-history' | 'transaction-logs' | 'audit';
  table: string;
  /** The sort time column (timestamptz); the id column is `id`. */
  time: string;
  /** The errors-only predicate, the one of the table's partial index. */
  error: string;
  /** The folded search column, the one of the table's trigram index (migration 004). */
  searchText: string;
  /** Rows and errors per installation and UTC day, kept by triggers. */
  dayCounts: string;
  /**
   * A column of the table and of its day counters that the `kind` filter matches (the audit
   * journal's kind; its counters have a row per installation, day and kind).
   */
  kind?: string;
  /**
   * The waiting-only predicate (import records: Etat 0, the connector's queue index) and the
   * statement counting its rows from counters ($1 the installation), when the table has one.
   */
  waiting?: { sql: string; count: string };
  /**
   * The terminal filter's column, and its counters' table (a row per installation and terminal
   * with `total` and `errors`), when the table has one (the trace).
   */
  terminal?: { column: string; counts: string };
}

export interface HistoryFilters {
  errorOnly: boolean;
  /** One calendar day of the display zone. */
  range: DayRange | null;
  /** Trimmed text, matched literally (wildcards included), case and accents ignored. */
  search: string | null;
  /** Only rows of this kind (tables with a `kind` column). */
  kind?: string | null;
  /** Only the rows waiting (tables with `waiting`). */
  waitingOnly?: boolean;
  /**
   * Only the rows of these terminal ids (tables with `terminal`): one id is read from the table's
   * terminal index; several, one id at a time from it, merged (selectRows).
   */
  terminals?: readonly string[] | null;
}

export interface PageRequest {
  page: number;
  pageSize: number;
  cursor?: string | undefined;
}

/** The engine's own columns on every row: the sort key. */
export interface KeyedRow {
  /** Row id, as text. */
  rowId: string;
  /** Sort time in UTC to the microsecond (`…T08:12:00.123456Z`). */
  rowKey: string;
}

/** Below this many rows skipped, OFFSET is cheaper than looking the day counters up. */
const DIRECT_SKIP_MAX = 2000;

/**
 * The LIKE pattern (SQL) that finds the search term held by parameter `$n` anywhere in a folded
 * search_text: the term folded by history_fold as the stored text is, then its LIKE characters
 * escaped, in that order. Folding turns the full-width ％ ＿ ＼ (U+FF05, U+FF3F, U+FF3C) into
 * % _ \: an escape made before it left them wildcards.
 */
export function containsPattern(n: number): string {
  const escaped = `replace(replace(replace(history_fold($${n}), '\\', '\\\\'), '%', '\\%'), '_', '\\_')`;
  return `'%' || ${escaped} || '%'`;
}

/**
 * Pieces of the term for the trigram index: each run of three ASCII letters or digits or more, cut
 * in three-character pieces side by side (a shorter rest left out), in the term's order; the last
 * six. Folding maps character by character, so each piece, folded, is in the folded term, and in
 * this order.
 *
 * Why not the whole term: for `LIKE '%xx\_358647926811%'` PostgreSQL intersects every trigram of
 * the pattern, the padded ones of its short words included (`"xx "`, `"  3"`, `" 35"`: words half
 * the rows hold); at 10 000 000 rows that read 3 500 index pages, 200–400 ms. The pattern
 * `'%358%647%926%811%'` asks exactly four trigrams and reads 190 pages, 11–30 ms (bench/README.md,
 * « Scale ×10 »). One pattern, not one LIKE per piece: the planner estimates a single pattern
 * from the column's statistics, where the product of separate pieces' estimates took « devis »
 * for a rare term and counted its matches with a parallel scan (6 → 20 ms).
 */
export function indexPieces(term: string): string[] {
  const pieces: string[] = [];
  for (const [run] of term.matchAll(/[A-Za-z0-9]{3,}/g)) {
    for (let i = 0; i + 3 <= run.length; i += 3) pieces.push(run.slice(i, i + 3));
  }
  return pieces.slice(-6);
}

/**
 * The condition « the folded column holds the term of parameter `$n` ». With two pieces or more,
 * their pattern selects the candidate rows and `strpos` (a literal match the index does not serve)
 * checks the term; otherwise the term's own LIKE pattern, as the index or the newest-first walk
 * takes it.
 */
export function containsCondition(column: string, term: string, n: number): string {
  const pieces = indexPieces(term);
  if (pieces.length < 2) return `${column} LIKE ${containsPattern(n)}`;
  // Letters and digits only, written into the statement: folded when it is planned (history_fold is
  // immutable), so the planner sees the pattern.
  const pattern = pieces.map((p) => `history_fold('${p}')`).join(` || '%' || `);
  return `${column} LIKE '%' || ${pattern} || '%' AND strpos(${column}, history_fold($${n})) > 0`;
}

/** A WHERE clause and its parameters ($1 is the installation). */
export interface Where {
  sql: string;
  params: unknown[];
  /**
   * Several terminal ids: the same clause for one of them, `wanted.terminal_id` (selectRows reads
   * each id's rows from the terminal index, newest first, and merges them), and the parameter
   * number of the ids (text[]).
   */
  perTerminal?: { sql: string; ids: number };
}

/** The filter's terminal ids, none when the table has no terminal column. */
const terminalsOf = (t: HistoryTable, filters: HistoryFilters): readonly string[] =>
  t.terminal ? (filters.terminals ?? []) : [];

export function whereOf(t: HistoryTable, installationId: string, filters: HistoryFilters): Where {
  const params: unknown[] = [installationId];
  const parts = ['installation_id = $1'];
  if (filters.errorOnly) parts.push(t.error);
  if (filters.waitingOnly && t.waiting) parts.push(t.waiting.sql);
  if (filters.range) {
    params.push(filters.range.from.toISOString(), filters.range.to.toISOString());
    parts.push(
      `${t.time} >= $${params.length - 1}::timestamptz AND ${t.time} < $${params.length}::timestamptz`,
    );
  }
  if (filters.kind && t.kind) {
    params.push(filters.kind);
    parts.push(`${t.kind} = $${params.length}`);
  }
  const terminals = terminalsOf(t, filters);
  const column = t.terminal?.column;
  // The index of the terminal's part in `parts`, and the number of its parameter.
  let terminal: { part: number; param: number } | null = null;
  if (column && terminals.length > 0) {
    params.push(terminals.length === 1 ? terminals[0] : [...terminals]);
    terminal = { part: parts.length, param: params.length };
    parts.push(
      terminals.length === 1
        ? `${column} = $${params.length}`
        : `${column} = ANY ($${params.length}::text[])`,
    );
  }
  if (filters.search) {
    params.push(filters.search);
    parts.push(containsCondition(t.searchText, filters.search, params.length));
  }
  const where: Where = { sql: parts.join(' AND '), params };
  if (terminal && terminals.length > 1) {
    const one = parts.map((p, i) => (i === terminal.part ? `${column} = wanted.terminal_id` : p));
    where.perTerminal = { sql: one.join(' AND '), ids: terminal.param };
  }
  return where;
}

type End = 'newest' | 'oldest';

const ORDER: Record<End, string> = { newest: 'DESC', oldest: 'ASC' };

/**
 * The statement reading `take` rows from `end` after skipping `skip`. With several terminal ids,
 * each id's rows are read from the terminal index newest (or oldest) first, `skip + take` at most,
 * and merged: never all the rows of the terminals sorted (a terminal may have millions).
 */
function rowsQuery(
  t: HistoryTable,
  columns: string,
  where: Where,
  end: End,
  extra: { sql: string; params: unknown[] } | null,
  skip: number,
  take: number,
): { sql: string; params: unknown[] } {
  const params = [...where.params, ...(extra?.params ?? [])];
  // `extra` numbers its parameters from where.params.length + 1.
  const dir = ORDER[end];
  const keyed = `${columns}, id::text AS "rowId",
      to_char(${t.time} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "rowKey"`;
  const and = extra ? ` AND ${extra.sql}` : '';
  const order = (time: string, id: string) => `ORDER BY ${time} ${dir}, ${id} ${dir}`;
  if (where.perTerminal) {
    params.push(skip, take, skip + take);
    const n = params.length;
    const sql = `SELECT m.* FROM unnest($${where.perTerminal.ids}::text[]) AS wanted (terminal_id)
      CROSS JOIN LATERAL (
        SELECT ${keyed}, ${t.time} AS "sortTime", id AS "sortId"
        FROM ${t.table} WHERE ${where.perTerminal.sql}${and} ${order(t.time, 'id')} LIMIT $${n}
      ) AS m
      ${order('m."sortTime"', 'm."sortId"')} OFFSET $${n - 2} LIMIT $${n - 1}`;
    return { sql, params };
  }
  params.push(skip, take);
  const sql = `SELECT ${keyed}
    FROM ${t.table} WHERE ${where.sql}${and}
    ${order(t.time, 'id')} OFFSET $${params.length - 1} LIMIT $${params.length}`;
  return { sql, params };
}

export function selectRows<R>(
  q: Queryable,
  t: HistoryTable,
  columns: string,
  where: Where,
  end: End,
  extra: { sql: string; params: unknown[] } | null,
  skip: number,
  take: number,
): Promise<(R & KeyedRow)[]> {
  const { sql, params } = rowsQuery(t, columns, where, end, extra, skip, take);
  return q.query<R & KeyedRow>(sql, params);
}

/** Rows strictly beyond a sort key, towards `end`. */
export function beyondKey(t: HistoryTable, where: Where, end: End, time: string, id: string) {
  const n = where.params.length;
  return {
    sql: `(${t.time}, id) ${end === 'newest' ? '>' : '<'} ($${n + 1}::timestamptz, $${n + 2}::bigint)`,
    params: [time, id],
  };
}

/** The kind filter on the day counters ($2), when the table has kinds. */
function countersKind(t: HistoryTable, filters: HistoryFilters): { sql: string; params: unknown[] } {
  return filters.kind && t.kind
    ? { sql: ` AND ${t.kind} = $2`, params: [filters.kind] }
    : { sql: '', params: [] };
}

export interface Count {
  total: number;
  exact: boolean;
}

/**
 * The number of rows the filters select: the day counters without search or day; an index count
 * for one day (hundreds of rows); for a search, counted up to searchCountMax + 1 only.
 */
export async function countRows(
  q: Queryable,
  t: HistoryTable,
  installationId: string,
  filters: HistoryFilters,
): Promise<Count> {
  if (filters.waitingOnly && t.waiting && !filters.search && !filters.range && !filters.errorOnly) {
    const [row] = await q.query<{ n: number }>(t.waiting.count, [installationId]);
    return { total: Number(row?.n ?? 0), exact: true };
  }
  const terminals = terminalsOf(t, filters);
  if (t.terminal && terminals.length > 0 && !filters.search && !filters.range) {
    const [row] = await q.query<{ n: number }>(
      `SELECT coalesce(sum(${filters.errorOnly ? 'errors' : 'total'}), 0)::bigint AS n
       FROM ${t.terminal.counts} WHERE installation_id = $1 AND ${t.terminal.column} = ANY ($2::text[])`,
      [installationId, [...terminals]],
    );
    return { total: Number(row?.n ?? 0), exact: true };
  }
  if (!filters.search && !filters.range && !filters.waitingOnly && terminals.length === 0) {
    const kind = countersKind(t, filters);
    const [row] = await q.query<{ n: number }>(
      `SELECT coalesce(sum(${filters.errorOnly ? 'errors' : 'total'}), 0)::int AS n
       FROM ${t.dayCounts} WHERE installation_id = $1${kind.sql}`,
      [installationId, ...kind.params],
    );
    return { total: row?.n ?? 0, exact: true };
  }
  const where = whereOf(t, installationId, filters);
  if (!filters.search) {
    // One day, or waiting rows with errors (none: a record has one state).
    const [row] = await q.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${t.table} WHERE ${where.sql}`,
      where.params,
    );
    return { total: row?.n ?? 0, exact: true };
  }
  const max = HISTORY_LIMITS.searchCountMax;
  // Ordered like the page, so that the planner picks the same path: the newest-first index (which
  // holds the folded text) for a common term, the trigram index for a rare one.
  const rows = rowsQuery(t, '1 AS one', where, 'newest', null, 0, max + 1);
  const [row] = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (${rows.sql}) AS s`,
    rows.params,
  );
  const n = row?.n ?? 0;
  return n > max ? { total: max, exact: false } : { total: n, exact: true };
}

/**
 * `take` rows from `end`, after skipping `skip`. Without search or day, a long skip starts in the
 * UTC day where the day counters' running sum (from that end) passes it.
 */
async function readFromEnd<R>(
  q: Queryable,
  t: HistoryTable,
  installationId: string,
  filters: HistoryFilters,
  columns: string,
  end: End,
  skip: number,
  take: number,
): Promise<(R & KeyedRow)[]> {
  const where = whereOf(t, installationId, filters);
  if (
    skip <= DIRECT_SKIP_MAX ||
    filters.search ||
    filters.range ||
    filters.waitingOnly ||
    terminalsOf(t, filters).length > 0
  ) {
    return selectRows<R>(q, t, columns, where, end, null, skip, take);
  }
  const dir = ORDER[end];
  const kind = countersKind(t, filters);
  // Summed per day: a table with kinds has a counter row per day and kind.
  const [day] = await q.query<{ day: string; before: number }>(
    `SELECT day::text AS day, before::int AS before FROM (
       SELECT day, n, sum(n) OVER (ORDER BY day ${dir} ROWS UNBOUNDED PRECEDING) - n AS before
       FROM (SELECT day, sum(${filters.errorOnly ? 'errors' : 'total'}) AS n
             FROM ${t.dayCounts} WHERE installation_id = $1${kind.sql.replace('$2', '$3')} GROUP BY day) AS c
       WHERE n > 0
     ) AS w WHERE before + n > $2 ORDER BY day ${dir} LIMIT 1`,
    [installationId, skip, ...kind.params],
  );
  if (!day) return [];
  const n = where.params.length;
  // Newest first: rows before the end of that day; oldest first: rows from its start.
  const bound =
    end === 'newest'
      ? { sql: `${t.time} < ($${n + 1}::date + 1)::timestamp AT TIME ZONE 'UTC'`, params: [day.day] }
      : { sql: `${t.time} >= $${n + 1}::date::timestamp AT TIME ZONE 'UTC'`, params: [day.day] };
  return selectRows<R>(q, t, columns, where, end, bound, skip - day.before, take);
}

/**
 * The terminal filter as cursors and the audit name it: one id as `terminal` (as before several
 * were possible: cursors already given stay valid), several as a list.
 */
export function terminalScope(terminals: readonly string[] | null | undefined): {
  terminal?: string | string[];
} {
  if (!terminals || terminals.length === 0) return {};
  return { terminal: terminals.length === 1 ? (terminals[0] as string) : [...terminals] };
}

export interface ListedPage<R> {
  rows: R[];
  paging: THistoryPaging;
}

export interface ListOptions<Row, R> {
  /** SQL select list of the table's columns (constants). */
  columns: string;
  /** HMAC key of the cursors (the session secret). */
  secret: string;
  map: (row: Row) => R;
}

/**
 * One page of a history list and its paging (contracts ZHistoryPaging), read in one
 * repeatable-read transaction so that the total and the rows agree.
 */
export async function listPage<Row, R>(
  db: Db,
  t: HistoryTable,
  installationId: string,
  filters: HistoryFilters,
  request: PageRequest,
  options: ListOptions<Row, R>,
): Promise<ListedPage<R>> {
  const { page, pageSize } = request;
  const scope = cursorScope(installationId, t.name, {
    errorOnly: filters.errorOnly,
    from: filters.range?.from.toISOString() ?? null,
    to: filters.range?.to.toISOString() ?? null,
    search: filters.search,
    ...(filters.kind ? { kind: filters.kind } : {}),
    ...(filters.waitingOnly ? { waitingOnly: true } : {}),
    ...terminalScope(filters.terminals),
  });
  // Checked before any query; page 1 is always read afresh (rows may have arrived meanwhile).
  const position = request.cursor ? decodeCursor(options.secret, scope, page, request.cursor) : null;
  const from = page > 1 ? position : null;

  return db.transaction(async (q) => {
    await q.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    const where = whereOf(t, installationId, filters);
    const offset = (page - 1) * pageSize;
    const counted = () => countRows(q, t, installationId, filters);
    let rows: (Row & KeyedRow)[];
    let count: Count;
    let hasPrevious = page > 1;
    let hasNext: boolean;

    if (!from && offset === 0) {
      // The first page first: when it holds everything (a rare term, a quiet day), it is the total.
      rows = await selectRows<Row>(q, t, options.columns, where, 'newest', null, 0, pageSize + 1);
      hasNext = rows.length > pageSize;
      rows = rows.slice(0, pageSize);
      count = hasNext ? await counted() : { total: rows.length, exact: true };
    } else if (from?.side === 'after') {
      count = await counted();
      const older = beyondKey(t, where, 'oldest', from.time, from.id);
      rows = await selectRows<Row>(q, t, options.columns, where, 'newest', older, 0, pageSize + 1);
      hasNext = rows.length > pageSize;
      rows = rows.slice(0, pageSize);
    } else if (from?.side === 'before') {
      count = await counted();
      const newer = beyondKey(t, where, 'newest', from.time, from.id);
      rows = (await selectRows<Row>(q, t, options.columns, where, 'oldest', newer, 0, pageSize)).reverse();
      hasNext = true;
    } else {
      count = await counted();
      const olderThanPage = count.exact ? count.total - offset - pageSize : Infinity;
      if (count.exact && offset >= count.total) {
        rows = [];
        hasPrevious = count.total > 0;
        hasNext = false;
      } else if (olderThanPage < offset) {
        // Nearer the oldest end: read from there, oldest first, and turn the page around.
        const take = Math.min(pageSize, count.total - offset);
        const skip = Math.max(0, olderThanPage);
        rows = (
          await readFromEnd<Row>(q, t, installationId, filters, options.columns, 'oldest', skip, take)
        ).reverse();
        hasNext = olderThanPage > 0;
      } else {
        rows = await readFromEnd<Row>(
          q,
          t,
          installationId,
          filters,
          options.columns,
          'newest',
          offset,
          pageSize + 1,
        );
        hasNext = rows.length > pageSize;
        rows = rows.slice(0, pageSize);
      }
    }

    const first = rows[0];
    const last = rows[rows.length - 1];
    const cursor = (position: CursorPosition) => encodeCursor(options.secret, scope, position);
    return {
      rows: rows.map(options.map),
      paging: {
        page,
        pageSize,
        total: count.total,
        totalPages: Math.ceil(count.total / pageSize),
        totalExact: count.exact,
        hasPrevious,
        hasNext,
        nextCursor:
          hasNext && last
            ? cursor({ page: page + 1, side: 'after', time: last.rowKey, id: last.rowId })
            : null,
        previousCursor:
          hasPrevious && first && page > 1
            ? cursor({ page: page - 1, side: 'before', time: first.rowKey, id: first.rowId })
            : null,
      },
    };
  });
}
