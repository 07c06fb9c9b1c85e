import { z } from 'zod';
import { parseIsoDateTime } from './connector-time.ts';

/**
 * The import history (Historique d'importation) and the transaction trace (Trace des
 * transactions): queries, answers and the CSV exports. The earlier console's names exactly (`data`,
 * `total`, `logs`, `pagination`, `IDInterne`, `Etat`, `DateHeureTrt`…: docs/spec-notes.md, Import
 * history and transaction trace), new fields in English camelCase (docs/architecture.md, Contract
 * field names). Server rules: docs/history.md.
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
// Import history: GET /api/sync-history

export const ZSyncHistoryQuery = z.object({
  page: ZPage,
  pageSize: ZPageSize,
  errorOnly: ZErrorOnly,
  date: ZHistoryDay,
  /** Reference, record type (TypeEnreg) and processing type (TypeElement). */
  search: ZSearch,
  cursor: ZCursor,
});
export type TSyncHistoryQuery = z.output<typeof ZSyncHistoryQuery>;
export type TSyncHistoryQueryInput = z.input<typeof ZSyncHistoryQuery>;

/** Etat of an import record: 0 to import, 1 processed, -1 error/rejected. */
export const ZEtat = z.union([z.literal(-1), z.literal(0), z.literal(1)]);
export type TEtat = z.infer<typeof ZEtat>;

/** The Traité cell's cycle (docs/spec-notes.md, Import history and transaction trace): 0 → 1 → −1 → 0. */
export function nextEtat(etat: number): TEtat {
  if (etat === 0) return 1;
  if (etat === 1) return -1;
  return 0;
}

/** One row of the history: never the record's XML, its log or its file. */
export const ZSyncHistoryRow = z.object({
  /** The connector's id, as it sent it: the `{id}` of the record's routes. */
  IDInterne: z.string(),
  Etat: ZEtat,
  TypeEnreg: z.string(),
  RefDoc: z.string(),
  /** ISO 8601 UTC. */
  DateHeure: z.string(),
  NumLigne: z.number().int(),
  TypeElement: z.string(),
  hasFile: z.boolean(),
  hasLog: z.boolean(),
});
export type TSyncHistoryRow = z.infer<typeof ZSyncHistoryRow>;

export const ZSyncHistoryPage = z.object({
  data: z.array(ZSyncHistoryRow),
  ...ZHistoryPaging.shape,
  displayTimeZone: ZDisplayTimeZone,
});
export type TSyncHistoryPage = z.infer<typeof ZSyncHistoryPage>;

// ---------------------------------------------------------------------------------------------
// PATCH /api/sync-history/{id}/status

const STATUS_MESSAGE = 'newStatus doit valoir 1 (traité), -1 (erreur) ou 0 (à importer)';

export const ZSyncHistoryStatusRequest = z.object({
  newStatus: z.union([z.number(), z.string()], { error: STATUS_MESSAGE }).transform((v, ctx): TEtat => {
    const n = typeof v === 'number' ? v : /^\s*[+-]?\d\s*$/.test(v) ? Number(v) : NaN;
    if (n !== 1 && n !== -1 && n !== 0) {
      ctx.addIssue({ code: 'custom', message: STATUS_MESSAGE, input: v });
      return z.NEVER;
    }
    return n;
  }),
});
export type TSyncHistoryStatusRequest = z.output<typeof ZSyncHistoryStatusRequest>;

/** The answer: the row as stored now (0 means back in the connector's import queue). */
export const ZSyncHistoryStatusAnswer = ZSyncHistoryRow;
export type TSyncHistoryStatusAnswer = TSyncHistoryRow;

// ---------------------------------------------------------------------------------------------
// GET and PUT /api/sync-history/{id}/xml

/** A document attached inside the record XML (`Table` ged/images): name and decoded size. */
export const ZRecordAttachmentView = z.object({
  name: z.string(),
  size: z.number().int(),
  /** `NomDocument`/`BinaireDocument` or `NomFichier`/`Photo`. */
  nameElement: z.string(),
  contentElement: z.string(),
  /** Path of the element holding the pair (`SyncNuxiDev/Enregistrement`). */
  path: z.string(),
});
export type TRecordAttachmentView = z.infer<typeof ZRecordAttachmentView>;

export const ZSyncHistoryXml = z.object({
  /** The record XML decoded for display (the connector's convention undone). */
  enreg: z.string(),
  /** UTF-8 bytes of `enreg`. */
  sizeBytes: z.number().int(),
  attachments: z.array(ZRecordAttachmentView),
});
export type TSyncHistoryXml = z.infer<typeof ZSyncHistoryXml>;

export const ZSyncHistoryXmlRequest = z.object({
  xml: z.string({ error: 'XML de l’enregistrement attendu (champ xml)' }),
});
export type TSyncHistoryXmlRequest = z.infer<typeof ZSyncHistoryXmlRequest>;

export const ZSyncHistoryXmlSaved = z.object({
  message: z.string(),
  IDInterne: z.string(),
  /** UTF-8 bytes of the XML as typed (decoded form). */
  sizeBytes: z.number().int(),
});
export type TSyncHistoryXmlSaved = z.infer<typeof ZSyncHistoryXmlSaved>;

/**
 * A refused XML save: `error` repeats `message` (the earlier screen read `error`: docs/spec-notes.md,
 * Import history and transaction trace); a 413 also gives the sizes.
 */
export const ZSyncHistoryXmlError = z.object({
  message: z.string(),
  code: z.string().optional(),
  error: z.string(),
  sizeBytes: z.number().int().optional(),
  maxBytes: z.number().int().optional(),
});
export type TSyncHistoryXmlError = z.infer<typeof ZSyncHistoryXmlError>;

// ---------------------------------------------------------------------------------------------
// Transaction trace: GET /api/transaction-logs

export const ZTransactionLogsQuery = z.object({
  page: ZPage,
  pageSize: ZPageSize,
  errorOnly: ZErrorOnly,
  /** yyyy-MM-dd (an ISO instant is read like the history's `date`). */
  dateFilter: ZHistoryDay,
  /** Document type, terminal id and label, document reference, transaction number. */
  searchText: ZSearch,
  cursor: ZCursor,
});
export type TTransactionLogsQuery = z.output<typeof ZTransactionLogsQuery>;
export type TTransactionLogsQueryInput = z.input<typeof ZTransactionLogsQuery>;

export const ZTransactionLogRow = z.object({
  /** The connector's transaction ID: the `{ID}` of transactionLogPath. */
  ID: z.string(),
  /** 1 error, 0 success. */
  Err: z.union([z.literal(0), z.literal(1)]),
  /** ISO 8601 UTC. */
  DateHeureTrt: z.string(),
  NumTransaction: z.string(),
  TypeDoc: z.string(),
  RefDoc: z.string(),
  IDTablette: z.string(),
  LibelleTablette: z.string(),
  /**
   * Decoded log. In a list row, its beginning (HISTORY_LIMITS.logPreviewLines lines,
   * logPreviewChars characters); whole in the detail answer.
   */
  Log: z.string(),
  /** True when `Log` is only the beginning ('Voir plus' fetches the whole). */
  logTruncated: z.boolean(),
});
export type TTransactionLogRow = z.infer<typeof ZTransactionLogRow>;

export const ZTransactionLogsPage = z.object({
  logs: z.array(ZTransactionLogRow),
  pagination: ZHistoryPaging,
  displayTimeZone: ZDisplayTimeZone,
});
export type TTransactionLogsPage = z.infer<typeof ZTransactionLogsPage>;

/** GET /api/transaction-logs/{ID}: the row with its whole log (`logTruncated` false). */
export const ZTransactionLogDetail = ZTransactionLogRow;
export type TTransactionLogDetail = TTransactionLogRow;

// ---------------------------------------------------------------------------------------------
// CSV exports (GET SYNC_HISTORY_EXPORT_PATH, TRANSACTION_LOGS_EXPORT_PATH)

/** The filters of the history export: those of the list, without paging. */
export const ZSyncHistoryExportQuery = ZSyncHistoryQuery.pick({ errorOnly: true, date: true, search: true });
export type TSyncHistoryExportQuery = z.output<typeof ZSyncHistoryExportQuery>;

export const ZTransactionLogsExportQuery = ZTransactionLogsQuery.pick({
  errorOnly: true,
  dateFilter: true,
  searchText: true,
});
export type TTransactionLogsExportQuery = z.output<typeof ZTransactionLogsExportQuery>;

/** Header rows of the CSV files (`;`-separated, UTF-8 with BOM). */
export const SYNC_HISTORY_CSV_HEADERS = [
  'Traité',
  "Type d'élément",
  'Référence',
  'Date/Heure Export',
  'Décalage UTC',
  'Nb Lignes',
  'Type Traitement',
  'ID interne',
  'Fichier',
] as const;

export const TRANSACTION_LOGS_CSV_HEADERS = [
  'État',
  'Date de transaction',
  'Décalage UTC',
  'N° Transaction',
  'Etape Sync',
  'ID Terminal',
  'Terminal',
  'Référence document',
  'ID',
  'Contenu du log',
] as const;

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
