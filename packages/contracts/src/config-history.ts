import { z } from 'zod';
import { HISTORY_QUERY_PARTS, ZDisplayTimeZone, ZHistoryPaging } from './history.ts';

export { SECRET_CHANGED_MASKS } from './constants.ts';

/**
 * The configuration history (Historique de la configuration, docs/config-history.md): the list of
 * versions, one version's changes (against the one before it or the current one), the raw XML
 * diff of one section, and the restore.
 */

export const CONFIG_HISTORY_PATH = '/api/configuration-history';

/** The sections of the history: the saveable sections of CONFIG_SECTIONS, with their menu names. */
export const HISTORY_SECTIONS = {
  sources: 'Base de données source',
  externalLinks: 'Liaisons externes',
  externalCalendars: 'Agendas externes',
  syncData: 'Données à synchroniser',
  exclusions: 'Exclusions de la synchro',
  complement: 'Complément',
  planifications: 'Planification',
  terminals: 'Terminaux',
} as const;
export type THistorySection = keyof typeof HISTORY_SECTIONS;
export const HISTORY_SECTION_KEYS = Object.keys(HISTORY_SECTIONS) as THistorySection[];
const ZHistorySection = z.enum(HISTORY_SECTION_KEYS as [THistorySection, ...THistorySection[]], {
  error: `section attendue : ${HISTORY_SECTION_KEYS.join(', ')}`,
});

/** Who wrote a version, as stored. */
export const ZVersionAuthor = z.enum(['user', 'connector', 'repair', 'restore', 'admin']);
export type TVersionAuthor = z.infer<typeof ZVersionAuthor>;
/** The author as a person reads it (the console's is followed by its address). */
export const VERSION_AUTHOR_LABELS: Record<TVersionAuthor, string> = {
  user: 'Console',
  connector: 'Connecteur',
  repair: 'Réparation',
  restore: 'Restauration',
  admin: "Commande d'administration",
};

export function configVersionPath(version: number, part: 'changes' | 'raw' | 'restore'): string {
  return `${CONFIG_HISTORY_PATH}/${version}/${part}`;
}

// ---------------------------------------------------------------------------------------------
// GET CONFIG_HISTORY_PATH

const ZFlagQuery = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', ''])], {
    error: 'valeur oui/non attendue (true, false, 1 ou 0)',
  })
  .transform((v) => v === true || v === 'true' || v === '1')
  .default(false);

export const ZConfigHistoryQuery = z.object({
  page: HISTORY_QUERY_PARTS.page,
  pageSize: HISTORY_QUERY_PARTS.pageSize,
  cursor: HISTORY_QUERY_PARTS.cursor,
  /** Show the connector's updates one by one instead of folded. */
  connector: ZFlagQuery,
});
export type TConfigHistoryQuery = z.output<typeof ZConfigHistoryQuery>;

/** Connector updates folded into one line (« 96 mises à jour du connecteur »). */
export const ZConnectorFold = z.object({
  count: z.number().int().positive(),
  /** ISO 8601 UTC of the oldest and newest of them. */
  from: z.string(),
  to: z.string(),
});
export type TConnectorFold = z.infer<typeof ZConnectorFold>;

export const ZConfigVersionRow = z.object({
  version: z.number().int().positive(),
  /** ISO 8601 UTC. */
  at: z.string(),
  author: ZVersionAuthor,
  /** Address of the console session ('user', 'restore'), else null. */
  address: z.string().nullable(),
  /** The sections it changed, in menu order. */
  sections: z.array(ZHistorySection),
  /** One French line per change (« Planification : 2 plannings ajoutés, 1 supprimé »). */
  summary: z.array(z.string()),
  current: z.boolean(),
  /** Its text is kept: its changes can be opened and it can be restored. */
  restorable: z.boolean(),
  /** Connector updates between this version and the newer one above it (folded view only). */
  connectorAfter: ZConnectorFold.nullable(),
});
export type TConfigVersionRow = z.infer<typeof ZConfigVersionRow>;

export const ZConfigHistoryPage = z.object({
  versions: z.array(ZConfigVersionRow),
  pagination: ZHistoryPaging,
  displayTimeZone: ZDisplayTimeZone,
  currentVersion: z.number().int().nonnegative(),
  /** CONFIG_VERSIONS_KEEP and CONFIG_VERSIONS_MAX_AGE_DAYS, shown on the screen. */
  /** maxBytes: the stored size of the texts kept, at most (CONFIG_VERSIONS_MAX_MB). */
  retention: z.object({ keep: z.number().int(), maxAgeDays: z.number().int(), maxBytes: z.number().int() }),
});
export type TConfigHistoryPage = z.infer<typeof ZConfigHistoryPage>;

// ---------------------------------------------------------------------------------------------
// GET configVersionPath(v, 'changes') ?against=previous|current

const ZAgainst = z
  .enum(['previous', 'current'], { error: "comparaison attendue : 'previous' ou 'current'" })
  .default('previous');

export const ZConfigChangesQuery = z.object({ against: ZAgainst });
export type TConfigChangesQuery = z.output<typeof ZConfigChangesQuery>;

/**
 * One changed field, with the label of its screen and the values as the screens show them
 * (decoded). A secret is never sent: `secret` is true, `before`/`after` are null and `changed`
 * says « Mot de passe modifié » or « inchangé ».
 */
export const ZFieldChange = z.object({
  label: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  secret: z.boolean(),
  changed: z.boolean(),
});
export type TFieldChange = z.infer<typeof ZFieldChange>;

export const ZSectionChanges = z.object({
  section: ZHistorySection,
  label: z.string(),
  summary: z.string(),
  fields: z.array(ZFieldChange),
});
export type TSectionChanges = z.infer<typeof ZSectionChanges>;

export const ZConfigChanges = z.object({
  version: z.number().int().positive(),
  against: z.enum(['previous', 'current']),
  /** The version compared with (the kept one before it, or the current one); null when none is kept. */
  otherVersion: z.number().int().nullable(),
  /** Changed sections only, in menu order; the older version's values under « Avant ». */
  sections: z.array(ZSectionChanges),
});
export type TConfigChanges = z.infer<typeof ZConfigChanges>;

// ---------------------------------------------------------------------------------------------
// GET configVersionPath(v, 'raw') ?section=…&against=…

export const ZConfigRawQuery = z.object({ section: ZHistorySection, against: ZAgainst });
export type TConfigRawQuery = z.output<typeof ZConfigRawQuery>;

export const ZRawDiffLine = z.object({
  /** ' ' unchanged, '-' only before, '+' only after. */
  op: z.enum([' ', '-', '+']),
  text: z.string(),
});
export const ZConfigRawDiff = z.object({
  section: ZHistorySection,
  /** Unchanged lines far from a change are left out (`skipped` lines at that place). */
  lines: z.array(z.union([ZRawDiffLine, z.object({ skipped: z.number().int().positive() })])),
  /** Too many differences to compute within the limit: both texts are not compared line by line. */
  tooLarge: z.boolean(),
});
export type TConfigRawDiff = z.infer<typeof ZConfigRawDiff>;

// ---------------------------------------------------------------------------------------------
// POST configVersionPath(v, 'restore') with If-Match: "<current version>"

export const ZRestoreRequest = z.object({
  /** The sections to restore; every section of the version when absent. */
  sections: z.array(ZHistorySection).min(1, 'au moins une section').optional(),
});
export type TRestoreRequest = z.input<typeof ZRestoreRequest>;

export const ZRestoreResponse = z.object({
  message: z.string(),
  version: z.number().int().positive(),
  /** The sections the restore changed (none: nothing differed, no version written). */
  sections: z.array(ZHistorySection),
});
export type TRestoreResponse = z.infer<typeof ZRestoreResponse>;

export const CONFIG_HISTORY_MESSAGES = {
  versionNotFound: 'Version introuvable : elle a peut-être été supprimée par la rétention.',
  restored: 'La configuration a été restaurée.',
  connectorNotRestorable:
    'Une mise à jour du connecteur ne se restaure pas : restaurez la version enregistrée par la console avant elle.',
  nothingToRestore: 'Rien à restaurer : ces sections sont déjà comme dans cette version.',
  ifMatchRequired:
    'En-tête If-Match obligatoire : indiquez la version actuelle de la configuration (rechargez la page).',
} as const;
