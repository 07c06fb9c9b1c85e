import { z } from 'zod';
import { HISTORY_QUERY_PARTS, ZDisplayTimeZone, ZHistoryPaging } from './history.ts';

/** The audit journal (Journal d'audit, docs/audit.md): its list and its CSV export. */

export const AUDIT_PATH = '/api/audit';
export const AUDIT_EXPORT_PATH = '/api/exports/audit.csv';

/** Kinds of the journal's filter, with their French names. */
export const AUDIT_KINDS = {
  connexion: 'Connexions',
  configuration: 'Configuration',
  synchronisation: 'Synchronisations',
  historique: 'Historique et trace',
  export: 'Exports',
  connecteur: 'Connecteur',
  administration: 'Administration',
  autre: 'Autre',
} as const;
export type TAuditKind = keyof typeof AUDIT_KINDS;
export const AUDIT_KIND_KEYS = Object.keys(AUDIT_KINDS) as TAuditKind[];

/** Every action the server records, its kind and its French label. */
export const AUDIT_ACTIONS = {
  'login.success': { kind: 'connexion', label: 'Connexion réussie' },
  'login.failure': { kind: 'connexion', label: 'Échec de connexion (identifiants incorrects)' },
  'login.refused': { kind: 'connexion', label: 'Connexion refusée (installation suspendue ou expirée)' },
  'login.throttled': { kind: 'connexion', label: 'Connexion bloquée (trop de tentatives)' },
  logout: { kind: 'connexion', label: 'Déconnexion' },
  'config.save': { kind: 'configuration', label: 'Enregistrement d’une section' },
  'config.restore': { kind: 'configuration', label: 'Restauration de la configuration' },
  'config.repair': { kind: 'configuration', label: 'Réparation du XML' },
  'config.connector-write': {
    kind: 'connecteur',
    label: 'Mise à jour de la configuration par le connecteur',
  },
  'automate.register': { kind: 'connecteur', label: 'Enregistrement du service automate' },
  'sync-automate.request': { kind: 'synchronisation', label: 'Demande de synchronisation' },
  'history.status': { kind: 'historique', label: 'Changement d’état d’un enregistrement' },
  'history.bulk-status': {
    kind: 'historique',
    label: 'Changement d’état des enregistrements d’un filtre',
  },
  'history.xml': { kind: 'historique', label: 'Modification du XML d’un enregistrement' },
  'import-history.export': { kind: 'export', label: 'Export de l’historique d’importation' },
  'transaction-logs.export': { kind: 'export', label: 'Export de la trace des transactions' },
  'audit.export': { kind: 'export', label: 'Export du journal d’audit' },
  'installation.create': { kind: 'administration', label: 'Création de l’installation' },
  'installation.set-client-id': { kind: 'administration', label: 'Nouvel ID client' },
  'installation.rotate-connector-token': { kind: 'administration', label: 'Nouveau jeton du connecteur' },
  'installation.suspend': { kind: 'administration', label: 'Suspension de l’installation' },
  'installation.resume': { kind: 'administration', label: 'Réactivation de l’installation' },
  'installation.set-expiry': { kind: 'administration', label: 'Date d’expiration modifiée' },
  'history.seed': { kind: 'administration', label: 'Données de banc d’essai ajoutées' },
  'history.prune': {
    kind: 'administration',
    label: 'Suppression des anciens enregistrements et transactions',
  },
  'audit.seed': { kind: 'administration', label: 'Journal d’audit rempli pour le banc d’essai' },
  // The drive's rows were written before their labels, as 'autre': kept so, the filter stays whole.
  'drive.connect': { kind: 'autre', label: 'Connexion du Drive' },
  'drive.disconnect': { kind: 'autre', label: 'Déconnexion du Drive' },
  'drive.revoke-previous': {
    kind: 'autre',
    label: 'Révocation de l’autorisation Drive remplacée',
  },
  // Written as 'autre' before their labels existed (as the drive's): kept so.
  'installation.set-storage-quota': { kind: 'autre', label: 'Quota de stockage modifié' },
  'mail.test-report': { kind: 'autre', label: 'Envoi d’un rapport de test par email' },
} as const satisfies Record<string, { kind: TAuditKind; label: string }>;
export type TAuditAction = keyof typeof AUDIT_ACTIONS;

export function auditKindOf(action: string): TAuditKind {
  return (AUDIT_ACTIONS as Record<string, { kind: TAuditKind }>)[action]?.kind ?? 'autre';
}
export function auditLabelOf(action: string): string {
  return (AUDIT_ACTIONS as Record<string, { label: string }>)[action]?.label ?? action;
}

/** Who acted, as stored: a console session, the command line, an anonymous sign-in, the connector, the server. */
export const ZAuditActor = z.enum(['user', 'admin', 'anonymous', 'connector', 'system']);
export type TAuditActor = z.infer<typeof ZAuditActor>;
export const AUDIT_ACTOR_LABELS: Record<TAuditActor, string> = {
  user: 'Console',
  admin: "Commande d'administration",
  anonymous: 'Anonyme',
  connector: 'Connecteur',
  system: 'Serveur',
};

export const ZAuditOutcome = z.enum(['success', 'failure', 'refused']);
export type TAuditOutcome = z.infer<typeof ZAuditOutcome>;
export const AUDIT_OUTCOME_LABELS: Record<TAuditOutcome, string> = {
  success: 'Réussi',
  failure: 'Échec',
  refused: 'Refusé',
};

const ZKindQuery = z.preprocess(
  (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
  z
    .enum(AUDIT_KIND_KEYS as [TAuditKind, ...TAuditKind[]], {
      error: `type attendu : ${AUDIT_KIND_KEYS.join(', ')}`,
    })
    .optional(),
);

export const ZAuditQuery = z.object({
  page: HISTORY_QUERY_PARTS.page,
  pageSize: HISTORY_QUERY_PARTS.pageSize,
  /** Failures and refusals only. */
  errorOnly: HISTORY_QUERY_PARTS.errorOnly,
  /** One day of the display zone (yyyy-MM-dd). */
  date: HISTORY_QUERY_PARTS.day,
  kind: ZKindQuery,
  /** The action's label, the address, the details' values. */
  search: HISTORY_QUERY_PARTS.search,
  cursor: HISTORY_QUERY_PARTS.cursor,
});
export type TAuditQuery = z.output<typeof ZAuditQuery>;

export const ZAuditExportQuery = ZAuditQuery.pick({ errorOnly: true, date: true, kind: true, search: true });
export type TAuditExportQuery = z.output<typeof ZAuditExportQuery>;

export const ZAuditRow = z.object({
  id: z.string(),
  /** ISO 8601 UTC. */
  at: z.string(),
  actor: ZAuditActor,
  action: z.string(),
  kind: z.enum(AUDIT_KIND_KEYS as [TAuditKind, ...TAuditKind[]]),
  label: z.string(),
  outcome: ZAuditOutcome,
  address: z.string().nullable(),
  /** What the action was about, in French (« Section : Planification · version 12 → 13 »). */
  details: z.array(z.object({ label: z.string(), value: z.string() })),
});
export type TAuditRow = z.infer<typeof ZAuditRow>;

export const ZAuditPage = z.object({
  rows: z.array(ZAuditRow),
  pagination: ZHistoryPaging,
  displayTimeZone: ZDisplayTimeZone,
  /** AUDIT_RETENTION_DAYS, shown on the screen. */
  retentionDays: z.number().int().positive(),
});
export type TAuditPage = z.infer<typeof ZAuditPage>;
