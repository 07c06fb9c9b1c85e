import { z } from 'zod';
import { parseIsoDateTime } from './connector-time.ts';

/**
 * What the import history (Historique d'importation, sync-history.ts) and the transaction trace
 * (Trace des transactions, transaction-logs.ts) share: paths, limits, query parameters, paging and
 * the server's messages. The earlier console's names exactly (`data`, `total`, `logs`,
 * `pagination`, `IDInterne`, `Etat`, `DateHeureTrt`…: docs/spec-notes.md, Import history and
 * transaction trace), new fields in English camelCase (docs/contracts.md, Field names). Server
 * rules: docs/history.md.
 *
 * Times are ISO 8601 UTC instants (`2025-11-14T08:12:00.000Z`); the screens show them in
 * `displayTimeZone` (Planification's zone), `dd/MM/yyyy HH:mm:ss`, without any other shift.
 */

// ---------------------------------------------------------------------------------------------
// Paths and limits

export const SYNC_HISTORY_PATH = '/api/sync-history';
export const TRANSACTION_LOGS_PATH = '/api/transaction-logs';
/** CSV of the filtered history / trace (same filters as the lists, no paging). */
export const SYNC_HISTORY_EXPORT_PATH = '/api/exports/sync-history.csv';
export const TRANSACTION_LOGS_EXPORT_PATH = '/api/exports/transaction-logs.csv';

export type TSyncHistoryPart = 'status' | 'xml' | 'file' | 'log';

/** `/api/sync-history/{IDInterne}/{part}` (the id URL-encoded). */
export function syncHistoryRecordPath(idInterne: string, part: TSyncHistoryPart): string {
  return `${SYNC_HISTORY_PATH}/${encodeURIComponent(idInterne)}/${part}`;
}

/** `/api/transaction-logs/{ID}`: one transaction with its whole log ('Voir plus'). */
export function transactionLogPath(id: string): string {
  return `${TRANSACTION_LOGS_PATH}/${encodeURIComponent(id)}`;
}

export const HISTORY_LIMITS = {
  /** Rows per page by default (docs/spec-notes.md, Import history and transaction trace). */
  pageSize: 25,
  /** Larger `pageSize` values are brought down to this. */
  pageSizeMax: 100,
  /** Highest page number accepted. */
  pageMax: 10_000_000,
  /**
   * A search is counted up to this many rows: beyond, `totalExact` is false and `total` is this
   * number; the screens write « plus de 1 000 ». The count of a common term reads about
   * searchCountMax ÷ its share of the rows index entries (docs/history.md, Totals).
   */
  searchCountMax: 1_000,
  /** Characters of a search text. */
  searchMaxChars: 100,
  /** Characters of a transaction's log in a list row (the whole log: transactionLogPath). */
  logPreviewChars: 500,
  /** Lines of a transaction's log in a list row. */
  logPreviewLines: 10,
} as const;

// ---------------------------------------------------------------------------------------------
// Query building blocks (query strings: every value arrives as text)

const nf = new Intl.NumberFormat('fr-FR');

/** An absent, null or blank query value is no value. */
function blankAsAbsent<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
    schema,
  );
}

const PAGE_MESSAGE = `numéro de page attendu (entier de 1 à ${nf.format(HISTORY_LIMITS.pageMax)})`;
const PAGE_SIZE_MESSAGE = 'taille de page attendue (entier positif)';

function zPositiveInt(message: string, max: number) {
  return z.union([z.string(), z.number()], { error: message }).transform((v, ctx) => {
    const n = typeof v === 'number' ? v : /^\s*\d{1,12}\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < 1 || n > max) {
      ctx.addIssue({ code: 'custom', message, input: v });
      return z.NEVER;
    }
    return n;
  });
}

const ZPage = blankAsAbsent(zPositiveInt(PAGE_MESSAGE, HISTORY_LIMITS.pageMax).default(1));

/** Page size: 25 by default; anything above 100 is served as 100. */
const ZPageSize = blankAsAbsent(
  zPositiveInt(PAGE_SIZE_MESSAGE, Number.MAX_SAFE_INTEGER)
    .transform((n) => Math.min(n, HISTORY_LIMITS.pageSizeMax))
    .default(HISTORY_LIMITS.pageSize),
);

/** `errorOnly`: true/false, 1/0 (the earlier client sent `true`/`false`). */
const ZErrorOnly = blankAsAbsent(
  z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], {
      error: 'valeur oui/non attendue (true, false, 1 ou 0)',
    })
    .transform((v) => v === true || v === 'true' || v === '1')
    .default(false),
);

/**
 * The day asked for: a calendar date (`2025-11-14`), a wall clock without offset (its date), or an
 * instant (`2025-11-14T11:00:00.000Z`, the spec's browser sends local noon so) whose calendar day
 * in the installation's display zone is meant.
 */
export type THistoryDay =
  { kind: 'date'; year: number; month: number; day: number } | { kind: 'instant'; epochMs: number };

const DATE_MESSAGE = 'date attendue (AAAA-MM-JJ ou date et heure ISO 8601)';
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function parseHistoryDay(value: string): THistoryDay | null {
  const text = value.trim();
  const date = CALENDAR_DATE.exec(text);
  const parsed = parseIsoDateTime(date ? `${text}T12:00:00` : text);
  if (!parsed) return null;
  const { wall, offsetMinutes } = parsed;
  if (offsetMinutes === null) return { kind: 'date', year: wall.year, month: wall.month, day: wall.day };
  const epochMs =
    Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, wall.millisecond) -
    offsetMinutes * 60_000;
  return { kind: 'instant', epochMs };
}

const ZHistoryDay = blankAsAbsent(
  z
    .string({ error: DATE_MESSAGE })
    .max(64, DATE_MESSAGE)
    .transform((v, ctx) => {
      const day = parseHistoryDay(v);
      if (!day || (day.kind === 'date' && day.year < 1900)) {
        ctx.addIssue({ code: 'custom', message: DATE_MESSAGE, input: v });
        return z.NEVER;
      }
      return day;
    })
    .optional(),
);

/** A search text, trimmed; wildcard characters (`%`, `_`, `\`) are matched literally. */
const ZSearch = blankAsAbsent(
  z
    .string({ error: 'texte de recherche attendu' })
    .transform((v) => v.trim())
    .pipe(
      z
        .string()
        .max(
          HISTORY_LIMITS.searchMaxChars,
          `texte de recherche trop long (au plus ${HISTORY_LIMITS.searchMaxChars} caractères)`,
        )
        // A database text cannot hold U+0000: it would fail the query instead of finding nothing.
        .refine((v) => !v.includes('\u0000'), 'texte de recherche attendu, sans caractère nul'),
    )
    .optional(),
);

/** The opaque keyset cursor of an answer (`nextCursor`, `previousCursor`), sent back as it is. */
const ZCursor = blankAsAbsent(
  z.string({ error: 'curseur de pagination attendu' }).max(512, 'curseur de pagination invalide').optional(),
);

/** At most this many terminal ids in one filter (a terminal has two: its tablet / PC and its smartphone). */
export const TERMINAL_FILTER_MAX = 10;

/**
 * Terminal ids (IDTablette), exact: `terminal=ID`, or the parameter repeated for a terminal seen
 * under several ids (`terminal=TAB&terminal=PHONE`: Terminaux's tablet and smartphone ids), the
 * rows of any of them. Blank ids are none; repeated ones count once; no id at all is no filter.
 */
const ZTerminals = z.preprocess(
  (v) => {
    const ids = (Array.isArray(v) ? v : [v]).filter(
      (id) => id !== undefined && id !== null && !(typeof id === 'string' && id.trim() === ''),
    );
    return ids.length === 0 ? undefined : ids;
  },
  z
    .array(
      z.string({ error: 'identifiant de terminal attendu' }).max(200, 'identifiant de terminal trop long'),
    )
    .max(TERMINAL_FILTER_MAX, `au plus ${TERMINAL_FILTER_MAX} identifiants de terminal`)
    .transform((ids) => [...new Set(ids)])
    .optional(),
);

/**
 * The query parameters both lists share, each checked as query-string text (a blank value is no
 * value): page, page size, errors only, day, search text and keyset cursor; and the trace's
 * terminals.
 */
export const HISTORY_QUERY_PARTS = {
  terminal: ZTerminals,
  page: ZPage,
  pageSize: ZPageSize,
  errorOnly: ZErrorOnly,
  day: ZHistoryDay,
  search: ZSearch,
  cursor: ZCursor,
};

// ---------------------------------------------------------------------------------------------
// Shared answer parts

/** The zone the screens show times in (Planification's, as the dashboard) and its offset now. */
export const ZDisplayTimeZone = z.object({
  zone: z.string(),
  /** Minutes east of UTC at the time of the answer (Paris in winter: 60). */
  offsetMinutes: z.number().int(),
});
export type TDisplayTimeZone = z.infer<typeof ZDisplayTimeZone>;

/**
 * Paging of a list. 'Suivant' sends `page + 1` with `cursor = nextCursor`, 'Précédent' sends
 * `page − 1` with `cursor = previousCursor`: the neighbouring page is read from this page's edge,
 * as fast as the first page however deep. A page number alone (first, last, any jump) works too;
 * the last page is read from the far end. A cursor belongs to its filters: after a filter change,
 * start again at page 1 without cursor.
 */
export const ZHistoryPaging = z.object({
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
  /** False when a search matched more than HISTORY_LIMITS.searchCountMax rows: `total` is that bound. */
  totalExact: z.boolean(),
  hasPrevious: z.boolean(),
  hasNext: z.boolean(),
  nextCursor: z.string().nullable(),
  previousCursor: z.string().nullable(),
});
export type THistoryPaging = z.infer<typeof ZHistoryPaging>;

// ---------------------------------------------------------------------------------------------
// Messages the server answers (docs/server.md, Import history and transaction trace)

export const HISTORY_MESSAGES = {
  /** 404 of every `{id}` route: unknown, malformed, or another installation's id. */
  recordNotFound: 'Enregistrement introuvable.',
  transactionNotFound: 'Transaction introuvable.',
  /** 404 of GET …/file (docs/spec-notes.md, Import history and transaction trace). */
  fileNotFound: "Fichier non disponible - Aucun fichier n'est disponible pour cet enregistrement.",
  /** 413 of PUT …/xml (the same notes), followed by the size. */
  xmlTooLarge: 'Le fichier XML est trop volumineux pour être traité par le serveur',
  xmlSaved: "Les données XML de l'enregistrement ont été enregistrées.",
  cursorInvalid: 'Curseur de pagination invalide : revenez à la première page.',
  cursorStale:
    'Ce curseur de pagination ne correspond pas aux filtres ou à la page demandés : revenez à la première page.',
} as const;
