import { z } from 'zod';

/**
 * The console's emails (docs/mail.md): « Test rapport » and « Emails envoyés » of the Complément
 * screen.
 */

export const MAIL_PATHS = {
  testReport: '/api/mail/test-report',
  outbox: '/api/mail/outbox',
} as const;

/** `GET ${MAIL_PATHS.outbox}/{id}`. */
export const outboxMailPath = (id: string) => `${MAIL_PATHS.outbox}/${encodeURIComponent(id)}`;

const EMAIL = /^[^\s@;,<>"]+@[^\s@;,.<>"]+(\.[^\s@;,.<>"]+)+$/;

/** The addresses of a « Notification par email » field: separated by ';' or ','. */
export function emailAddresses(value: string): string[] {
  return value
    .split(/[;,]/)
    .map((a) => a.trim())
    .filter((a) => a !== '');
}

/** Empty, or one or more addresses separated by ';' or ','. */
export function isValidEmailList(value: string): boolean {
  const text = value.trim();
  if (text === '') return true;
  return text
    .split(/[;,]/)
    .map((a) => a.trim())
    .every((a) => EMAIL.test(a));
}

/** At most this many addresses receive one email. */
export const MAX_RECIPIENTS = 20;

export const INVALID_TEST_ADDRESS =
  'Adresse email invalide\u00a0: saisissez une ou plusieurs adresses de la forme nom@entreprise.fr, séparées par un point-virgule.';

export const TOO_MANY_RECIPIENTS = `Au plus ${MAX_RECIPIENTS} adresses.`;

/**
 * What is wrong with a « Notification par email » value, in French, or null: each address well
 * formed, at most MAX_RECIPIENTS (beyond, the emails would silently go to the first ones only).
 */
export function emailListProblem(value: string): string | null {
  if (!isValidEmailList(value)) return INVALID_TEST_ADDRESS;
  if (emailAddresses(value).length > MAX_RECIPIENTS) return TOO_MANY_RECIPIENTS;
  return null;
}

export const ZTestReportRequest = z.object({
  mailDestinataire: z
    .string({ error: INVALID_TEST_ADDRESS })
    .max(1000, { error: INVALID_TEST_ADDRESS })
    .refine((v) => v.trim() !== '' && isValidEmailList(v), { error: INVALID_TEST_ADDRESS })
    .refine((v) => emailAddresses(v).length <= MAX_RECIPIENTS, { error: TOO_MANY_RECIPIENTS }),
});
export type TTestReportRequest = z.input<typeof ZTestReportRequest>;

/** What happened to a test report: sent, or why not. */
export const ZTestReportOutcome = z.enum(['sent', 'not-configured', 'refused', 'timeout']);
export type TTestReportOutcome = z.infer<typeof ZTestReportOutcome>;

export const ZTestReportAnswer = z.object({
  outcome: ZTestReportOutcome,
  /** French, for the toast: « Rapport de test envoyé à … », or why not. */
  message: z.string(),
  /** The outbox row (« Emails envoyés »). */
  mailId: z.string(),
});
export type TTestReportAnswer = z.infer<typeof ZTestReportAnswer>;

export const ZMailKind = z.enum([
  'sync-report',
  'errors',
  'import',
  'automate-offline',
  'automate-online',
  'order-refused',
  'test',
]);
export type TMailKind = z.infer<typeof ZMailKind>;

export const ZMailState = z.enum(['gathering', 'pending', 'sending', 'sent', 'failed', 'unconfigured']);
export type TMailState = z.infer<typeof ZMailState>;

export const MAIL_KIND_LABELS: Record<TMailKind, string> = {
  'sync-report': 'Rapport de synchronisation',
  errors: 'Notification d’erreurs',
  import: 'Notification d’import',
  'automate-offline': 'Automate hors ligne',
  'automate-online': 'Automate de nouveau en ligne',
  'order-refused': 'Demande de synchronisation non aboutie',
  test: 'Rapport de test',
};

export const MAIL_STATE_LABELS: Record<TMailState, string> = {
  gathering: 'En préparation (regroupement des erreurs)',
  pending: 'En attente d’envoi',
  sending: 'Envoi en cours',
  sent: 'Envoyé',
  failed: 'Échec',
  unconfigured: 'Non envoyé\u00a0: aucun serveur d’envoi configuré',
};

export const ZOutboxMail = z.object({
  id: z.string(),
  kind: ZMailKind,
  state: ZMailState,
  recipients: z.string(),
  /** null until the email is composed (at its first send). */
  subject: z.string().nullable(),
  createdAt: z.string(),
  /** When it leaves (pending) or left (sent). */
  dueAt: z.string(),
  sentAt: z.string().nullable(),
  attempts: z.number().int(),
  /** The relay's answer or why it was not sent. */
  lastError: z.string().nullable(),
});
export type TOutboxMail = z.infer<typeof ZOutboxMail>;

export const ZOutboxList = z.object({
  mails: z.array(ZOutboxMail),
  /** Whether this server has a relay (SMTP_URL). */
  relayConfigured: z.boolean(),
  displayTimeZone: z.object({ zone: z.string(), offsetMinutes: z.number().int() }),
});
export type TOutboxList = z.infer<typeof ZOutboxList>;

export const ZOutboxMailDetail = ZOutboxMail.extend({
  text: z.string().nullable(),
  html: z.string().nullable(),
});
export type TOutboxMailDetail = z.infer<typeof ZOutboxMailDetail>;

/** The newest emails the list shows. */
export const OUTBOX_LIST_SIZE = 50;
