import { AUDIT_KINDS, HISTORY_SECTIONS, type THistorySection } from '@synchro/contracts';
import { SECTION_OF_KIND, type EditKind } from '@synchro/config-xml';

/**
 * An audit row's details as the journal shows them: French labels and values, in a fixed order.
 * The details never hold a secret (recordAudit's rule); this only words them.
 */

const nf = new Intl.NumberFormat('fr-FR');
const yesNo = (v: unknown) => (v ? 'Oui' : 'Non');
const ETATS: Record<string, string> = { '0': 'Non traité', '1': 'Traité', '-1': 'Erreur' };
const SYNC_TYPES: Record<string, string> = { C: 'Complète', R: 'Incrémentale', I: 'Import des saisies' };
const SYNC_OUTCOMES: Record<string, string> = {
  accepted: 'acceptée',
  refused: 'refusée par l’automate',
  'not-premium': 'licence Premium nécessaire',
  'no-automate': 'aucun automate enregistré',
  'address-refused': 'adresse refusée',
  busy: 'une demande est déjà en cours',
  'rate-limited': 'trop de demandes',
  timeout: 'pas de réponse',
  unreachable: 'automate injoignable',
  'malformed-answer': 'réponse illisible',
};
const MAIL_OUTCOMES: Record<string, string> = {
  sent: 'envoyé',
  'not-configured': 'aucun serveur d’envoi configuré (SMTP_URL)',
  refused: 'refusé par le serveur d’envoi',
  timeout: 'pas de réponse du serveur d’envoi',
};
const REASONS: Record<string, string> = {
  suspended: 'installation suspendue',
  expired: 'installation expirée',
  DEMO: 'démarrage de la démonstration (DEMO)',
  'DEMO=0': 'démonstration arrêtée (DEMO=0)',
  'demo-automate': 'simulateur d’automate de la démonstration',
};
const REPAIR_CODES: Record<string, string> = {};
const DRIVES: Record<string, string> = { google: 'Google Drive', onedrive: 'OneDrive' };
const REVOCATIONS: Record<string, string> = {
  revoked: 'révoquée',
  failed: 'échec : l’autorisation reste peut-être valable chez le fournisseur',
  unsupported: 'impossible chez ce fournisseur : retirez l’accès depuis le compte',
  'already-revoked': 'déjà révoquée par le fournisseur',
  'same-grant': 'même compte : l’autorisation est celle du nouveau lien',
};

const sectionLabel = (kind: unknown): string => {
  if (typeof kind !== 'string') return String(kind);
  const section =
    (SECTION_OF_KIND as Record<string, THistorySection>)[kind as EditKind] ?? (kind as THistorySection);
  return HISTORY_SECTIONS[section] ?? kind;
};

const text = (v: unknown): string => {
  if (v === null || v === undefined) return '—';
  if (Array.isArray(v)) return v.map(text).join(' ; ');
  if (typeof v === 'number') return nf.format(v);
  if (typeof v === 'boolean') return yesNo(v);
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
};

interface PreviousAutomate {
  ip?: unknown;
  port?: unknown;
  version?: unknown;
}
/** The automate's previous report: « 10.0.0.5:8080, version 6.11.23.9 ». */
const previousAutomate = (p: PreviousAutomate): string =>
  `${text(p.ip)}:${String(p.port ?? '—')}${p.version ? `, version ${text(p.version)}` : ''}`;

type Formatter = (value: unknown, all: Record<string, unknown>) => [string, string] | null;

const FORMATS: Record<string, Formatter> = {
  section: (v) => ['Section', sectionLabel(v)],
  sections: (v) => ['Sections', Array.isArray(v) ? v.map(sectionLabel).join(', ') : text(v)],
  index: (v) => ['Terminal', `#${Number(v) + 1}`],
  version: (v, all) => [
    'Version',
    all.fromVersion !== undefined && all.fromVersion !== v
      ? `${text(all.fromVersion)} → ${text(v)}`
      : text(v),
  ],
  fromVersion: () => null,
  ifMatch: (v) => (v === null || v === undefined ? null : ['Version de l’écran', text(v)]),
  restoredVersion: (v) => ['Version restaurée', text(v)],
  backupVersion: (v) => ['Sauvegarde', `version ${text(v)}`],
  summary: (v) => (Array.isArray(v) && v.length === 0 ? null : ['Changements', text(v)]),
  refused: (v) => ['Refus', v === 'conflict' ? 'modifiée entre-temps (conflit)' : text(v)],
  parts: (v) => ['Parties', text(v)],
  changes: (v) => [
    'Corrections',
    Array.isArray(v) ? v.map((c) => REPAIR_CODES[String(c)] ?? String(c)).join(', ') : text(v),
  ],
  type: (v) => ['Type', SYNC_TYPES[String(v)] ?? text(v)],
  outcome: (v) => ['Résultat', SYNC_OUTCOMES[String(v)] ?? text(v)],
  retSync: () => null,
  orderId: () => null,
  automate: (v) => ['Automate', text(v)],
  durationMs: (v) => ['Durée', `${nf.format(Number(v))}\u00a0ms`],
  silentHours: (v) => ['Silencieux depuis', `${text(v)}\u00a0h`],
  IDInterne: (v) => ['Enregistrement', text(v)],
  queued: () => null,
  sizeBytes: (v) => ['Taille', `${nf.format(Number(v))}\u00a0octets`],
  errorOnly: (v) => ['Erreurs uniquement', yesNo(v)],
  terminal: (v) => ['Terminal', text(v)],
  waitingOnly: (v) => (v ? ['Non traités uniquement', 'Oui'] : null),
  count: (v) => ['Enregistrements', nf.format(Number(v))],
  dayFrom: (v) => (v ? ['Du', text(v)] : null),
  dayTo: (v) => (v ? ['Au (exclu)', text(v)] : null),
  search: (v) => (v ? ['Recherche', text(v)] : null),
  kind: (v) => (v ? ['Type', (AUDIT_KINDS as Record<string, string>)[String(v)] ?? text(v)] : null),
  reason: (v) => ['Motif', REASONS[String(v)] ?? text(v)],
  ip: (v) => ['Adresse de l’automate', text(v)],
  port: (v) => ['Port', String(v)],
  machineName: (v) => ['Machine', text(v)],
  previous: (v) => (v && typeof v === 'object' ? ['Avant', previousAutomate(v as PreviousAutomate)] : null),
  retryAfterSeconds: (v) => ['Réessayer dans', `${text(v)}\u00a0s`],
  rows: (v) => ['Lignes', text(v)],
  knownDevice: (v) => ['Navigateur déjà connu', yesNo(v)],
  options: (v) => ['Options de licence', text(v)],
  premium: (v) => ['Premium', yesNo(v)],
  expiresAt: (v) => ['Expiration', v ? text(v) : 'aucune'],
  records: (v) => ['Enregistrements', text(v)],
  olderThanDays: (v) => ['Plus anciens que', `${text(v)}\u00a0jours`],
  transactions: (v) => ['Transactions', text(v)],
  installations: (v) => ['Installations', text(v)],
  provider: (v) => ['Drive', DRIVES[String(v)] ?? text(v)],
  account: (v) => ['Compte', v ? text(v) : 'sans adresse'],
  revocation: (v) => ['Révocation chez le fournisseur', REVOCATIONS[String(v)] ?? text(v)],
  bench: (v) => ['Banc d’essai', yesNo(v)],
  audit: (v) => ['Événements du journal', text(v)],
  seconds: (v) => ['Durée', `${text(v)}\u00a0s`],
  force: (v) => ['Forcé', yesNo(v)],
  mail: (v) => ['Email', `n°\u00a0${text(v)} (« Emails envoyés »)`],
  recipients: (v) => ['Destinataires', text(v)],
  quotaBytes: (v) =>
    v === null || v === undefined
      ? ['Quota', 'celui du serveur (STORAGE_QUOTA_MB)']
      : ['Quota', `${nf.format(Math.round(Number(v) / (1024 * 1024)))}\u00a0Mo`],
};

/** Details shown first, in this order; the others follow as recorded, the screen's version last. */
const FIRST = [
  'section',
  'sections',
  'index',
  'version',
  'restoredVersion',
  'summary',
  'refused',
  'type',
  'outcome',
];
const LAST = ['ifMatch'];
const rank = (key: string) => {
  const first = FIRST.indexOf(key);
  if (first >= 0) return first;
  return LAST.includes(key) ? 1000 : 500;
};

/** The details of one row (`action` decides what `from`/`to` are: states or a day range). */
export function auditDetails(
  action: string,
  details: Record<string, unknown> | null,
): { label: string; value: string }[] {
  if (!details) return [];
  const out: { label: string; value: string }[] = [];
  const entries = Object.entries(details).sort(([a], [b]) => rank(a) - rank(b));
  for (const [key, value] of entries) {
    let pair: [string, string] | null;
    if (
      (key === 'from' || key === 'to') &&
      (action === 'history.status' || action === 'history.bulk-status')
    ) {
      pair = [key === 'from' ? 'État avant' : 'État après', ETATS[String(value)] ?? text(value)];
    } else if ((key === 'from' || key === 'to') && action.endsWith('.export')) {
      pair = value ? [key === 'from' ? 'Du' : 'Au (exclu)', text(value)] : null;
    } else if (key === 'version' && action === 'automate.register') {
      pair = ['Version de l’automate', text(value)];
    } else if (key === 'outcome' && action === 'mail.test-report') {
      pair = ['Résultat', MAIL_OUTCOMES[String(value)] ?? text(value)];
    } else {
      const f = FORMATS[key];
      pair = f ? f(value, details) : [key, text(value)];
    }
    if (pair) out.push({ label: pair[0], value: pair[1] });
  }
  return out;
}
