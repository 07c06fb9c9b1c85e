import { z } from 'zod';
import { HISTORY_QUERY_PARTS, ZDisplayTimeZone, ZHistoryPaging } from './history.ts';

/**
 * The import history (Historique d'importation): its list, the record routes (status, XML, file,
 * log) and its CSV export. Shared parts and conventions: history.ts.
 */

// ---------------------------------------------------------------------------------------------
// Import history: GET /api/sync-history

export const ZSyncHistoryQuery = z.object({
  page: HISTORY_QUERY_PARTS.page,
  pageSize: HISTORY_QUERY_PARTS.pageSize,
  errorOnly: HISTORY_QUERY_PARTS.errorOnly,
  /** Only the records waiting to be imported (Etat 0, « Non traité »): Général's « À traiter ». */
  waitingOnly: HISTORY_QUERY_PARTS.errorOnly,
  date: HISTORY_QUERY_PARTS.day,
  /** Reference, record type (TypeEnreg) and processing type (TypeElement). */
  search: HISTORY_QUERY_PARTS.search,
  cursor: HISTORY_QUERY_PARTS.cursor,
});
export type TSyncHistoryQuery = z.output<typeof ZSyncHistoryQuery>;

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
  /** HISTORY_RETENTION_DAYS: records older than that many days are deleted; null: kept for ever. */
  retentionDays: z.number().int().positive().nullable(),
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
// CSV export (GET SYNC_HISTORY_EXPORT_PATH)

/** The filters of the history export: those of the list, without paging. */
export const ZSyncHistoryExportQuery = ZSyncHistoryQuery.pick({
  errorOnly: true,
  waitingOnly: true,
  date: true,
  search: true,
});
export type TSyncHistoryExportQuery = z.output<typeof ZSyncHistoryExportQuery>;

/** Header row of the history's CSV file (`;`-separated, UTF-8 with BOM). */
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

// ---------------------------------------------------------------------------------------------
// POST /api/sync-history/bulk-status: every record the list's filters match (docs/glance.md)

export const SYNC_HISTORY_BULK_STATUS_PATH = '/api/sync-history/bulk-status';

const BULK_STATUS_MESSAGE = 'newStatus doit valoir 0 (remettre en attente) ou 1 (marquer traité)';

export const ZSyncHistoryBulkStatusRequest = z.object({
  /** 0: « Tout remettre en attente » (back in the connector's queue); 1: « Tout marquer traité ». */
  newStatus: z.union([z.literal(0), z.literal(1)], { error: BULK_STATUS_MESSAGE }),
  /** The list's filters, as in GET /api/sync-history. */
  errorOnly: HISTORY_QUERY_PARTS.errorOnly,
  waitingOnly: HISTORY_QUERY_PARTS.errorOnly,
  date: HISTORY_QUERY_PARTS.day,
  search: HISTORY_QUERY_PARTS.search,
  /** True: change nothing, answer how many records would change (the confirmation's count). */
  dryRun: z.boolean().default(false),
});
export type TSyncHistoryBulkStatusRequest = z.output<typeof ZSyncHistoryBulkStatusRequest>;

export const ZSyncHistoryBulkStatusAnswer = z.object({
  /** Records matched by the filters whose state differs from newStatus: changed (or would be). */
  count: z.number().int().nonnegative(),
  dryRun: z.boolean(),
});
export type TSyncHistoryBulkStatusAnswer = z.infer<typeof ZSyncHistoryBulkStatusAnswer>;
