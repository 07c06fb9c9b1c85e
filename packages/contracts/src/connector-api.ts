import { z } from 'zod';
import { parsePayload, type TPayloadIssue } from './config-sections.ts';
import {
  CONNECTOR_LIMITS,
  nullAsAbsent,
  typeError,
  utf8ByteLength,
  zCode,
  ZConnectorDateTime,
  ZConnectorFile,
  ZEnreg,
  zFreeText,
  zIdentifier,
  zInteger,
  zOptionalText,
  zText,
} from './connector-fields.ts';

export {
  CONNECTOR_LIMITS,
  base64DecodedSize,
  isStorableText,
  normaliseBase64,
  recordXmlTooLargeMessage,
  utf8ByteLength,
  utf8Within,
  ZConnectorDateTime,
  ZConnectorFile,
  ZEnreg,
  type TConnectorFile,
} from './connector-fields.ts';

/**
 * The connector API v1 (design/connector-api.md, stable): every request and answer, with the
 * connector's own field names. Requests are tolerant where the connector plainly means the same
 * thing (a number sent as a digit string, `null` for an absent optional member, a base64 content
 * with line breaks) and the schemas output one normal form (`z.output`). Texts are kept exactly as
 * the connector wrote them (its convention: docs/spec-notes.md, The configuration document):
 * never trimmed, never re-encoded.
 * Validation messages are French and lower-case: `connectorRequestMessage` puts the field's path
 * in front (`records[3].DateHeure : …`).
 */

const MB = 1024 * 1024;
const nf = new Intl.NumberFormat('fr-FR');

// ---------------------------------------------------------------------------------------------
// POST /api/connector/v1/automate

export const ZAutomateReport = z.object({
  port: zInteger(1, 65535),
  version: zOptionalText(CONNECTOR_LIMITS.automateVersionMaxChars),
  machineName: zOptionalText(CONNECTOR_LIMITS.machineNameMaxChars),
  /** Absent: the request's source address (or the forwarded one behind a trusted proxy). */
  ip: z.preprocess(
    (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
    z
      .string({ error: 'adresse IP attendue' })
      .transform((v) => v.trim())
      .pipe(z.union([z.ipv4(), z.ipv6()], { error: 'adresse IPv4 ou IPv6 attendue' }))
      .optional(),
  ),
});
export type TAutomateReport = z.output<typeof ZAutomateReport>;

export const ZAutomateReportAnswer = z.object({
  ip: z.string(),
  port: z.number().int(),
  /** ISO 8601, UTC. */
  registeredAt: z.string(),
  /**
   * Added (not in the v1 contract's answer): when the console will not send orders to this
   * address (its policy, AUTOMATE_NETWORKS), the French reason and what to do; the report is
   * recorded all the same (the service is alive). Absent when orders can be sent.
   */
  ordersRefused: z.string().optional(),
});
export type TAutomateReportAnswer = z.output<typeof ZAutomateReportAnswer>;

// ---------------------------------------------------------------------------------------------
// PATCH /api/connector/v1/configuration

/** An element name the connector may write under Info or DerSynchro (ASCII, letter first). */
export const CONFIG_CHILD_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,99}$/;

const zConfigValue = zText(CONNECTOR_LIMITS.configValueMaxChars);

function zConfigChildren(section: 'Info' | 'DerSynchro') {
  const typeMessage = typeError(`objet { nom: valeur } attendu pour ${section}`);
  return z
    .record(z.string().regex(CONFIG_CHILD_NAME), zConfigValue, {
      error: (issue) =>
        issue.code === 'invalid_key' ? `nom d’élément invalide sous ${section}` : typeMessage(issue),
    })
    .refine(
      (v) => Object.keys(v).length <= CONNECTOR_LIMITS.configKeysMax,
      `au plus ${CONNECTOR_LIMITS.configKeysMax} éléments`,
    )
    .meta({ maxProperties: CONNECTOR_LIMITS.configKeysMax });
}

export const ZConnectorSourceStatus = z.object({
  /** 1-based position of the `Source` in `Sources`. */
  index: zInteger(1, CONNECTOR_LIMITS.sourcesMax),
  Status: nullAsAbsent(zConfigValue.optional()),
  StatusLibelle: nullAsAbsent(zConfigValue.optional()),
});

export const ZConnectorConfigPatch = z.object({
  Info: nullAsAbsent(zConfigChildren('Info').optional()),
  DerSynchro: nullAsAbsent(zConfigChildren('DerSynchro').optional()),
  Sources: nullAsAbsent(
    z
      .array(ZConnectorSourceStatus, { error: typeError('liste attendue') })
      .max(CONNECTOR_LIMITS.sourcesMax, `au plus ${CONNECTOR_LIMITS.sourcesMax} sources`)
      .superRefine((sources, ctx) => {
        const seen = new Set<number>();
        sources.forEach((s, i) => {
          if (seen.has(s.index)) {
            ctx.addIssue({
              code: 'custom',
              message: `source ${s.index} en double`,
              path: [i, 'index'],
              input: '',
            });
          }
          seen.add(s.index);
        });
      })
      .optional(),
  ),
  /** The whole `<Data>` element as XML text; its XML is checked by the configuration engine. */
  Data: nullAsAbsent(
    z
      .string({ error: 'élément <Data> attendu (texte XML)' })
      .refine((v) => v.trim() !== '', 'élément <Data> attendu (texte XML)')
      .refine(
        // A UTF-16 unit is at most 3 UTF-8 bytes: a text that short cannot be over (no count).
        (v) =>
          v.length * 3 <= CONNECTOR_LIMITS.dataMaxBytes ||
          utf8ByteLength(v, CONNECTOR_LIMITS.dataMaxBytes) <= CONNECTOR_LIMITS.dataMaxBytes,
        `au plus ${nf.format(CONNECTOR_LIMITS.dataMaxBytes / MB)} Mo`,
      )
      .optional(),
  ),
});
export type TConnectorConfigPatch = z.output<typeof ZConnectorConfigPatch>;
export type TConnectorConfigPatchInput = z.input<typeof ZConnectorConfigPatch>;

export const ZConnectorConfigPatchAnswer = z.object({ version: z.number().int().positive() });
export type TConnectorConfigPatchAnswer = z.output<typeof ZConnectorConfigPatchAnswer>;

// ---------------------------------------------------------------------------------------------
// Import records

const ETAT_MESSAGE = 'Etat doit valoir 0 (à importer), 1 (importé) ou -1 (erreur)';
const RESULT_ETAT_MESSAGE = 'Etat doit valoir 1 (importé) ou -1 (erreur)';
const INT32_MAX = 2_147_483_647;

export const ZImportRecord = z.object({
  IDInterne: zIdentifier(CONNECTOR_LIMITS.idMaxChars),
  TypeEnreg: zOptionalText(CONNECTOR_LIMITS.shortTextMaxChars),
  RefDoc: zOptionalText(CONNECTOR_LIMITS.shortTextMaxChars),
  /** Without offset: the installation's wall clock (connectorTimeToUtc). */
  DateHeure: ZConnectorDateTime,
  NumLigne: nullAsAbsent(zInteger(-INT32_MAX - 1, INT32_MAX).default(0)),
  TypeElement: zOptionalText(CONNECTOR_LIMITS.shortTextMaxChars),
  Etat: zCode([0, 1, -1] as const, ETAT_MESSAGE),
  Log: nullAsAbsent(zFreeText(CONNECTOR_LIMITS.logMaxChars).optional()),
  Enreg: ZEnreg,
  Fichier: nullAsAbsent(ZConnectorFile.optional()),
});
export type TImportRecord = z.output<typeof ZImportRecord>;

/** `records`: a list of at most 500 items of `item`. */
function zRecordList<T extends z.ZodType>(item: T) {
  return z
    .array(item, { error: typeError('liste d’enregistrements attendue') })
    .max(
      CONNECTOR_LIMITS.recordsPerRequest,
      `au plus ${CONNECTOR_LIMITS.recordsPerRequest} enregistrements par requête`,
    );
}

export const ZImportRecordsRequest = z.object({ records: zRecordList(ZImportRecord) });
export type TImportRecordsRequest = z.output<typeof ZImportRecordsRequest>;

/**
 * The same request with its records left unchecked (same messages for the list itself): a server
 * checks each record with ZImportRecord while it writes the previous ones (parseConnectorItem).
 */
export const ZImportRecordsEnvelope = z.object({ records: zRecordList(z.unknown()) });

/** The answer of both batch routes (import records, transactions). */
export const ZConnectorBatchAnswer = z.object({
  inserted: z.number().int().nonnegative(),
  duplicates: z.number().int().nonnegative(),
});
export type TConnectorBatchAnswer = z.output<typeof ZConnectorBatchAnswer>;

/** GET /import-records/queue?limit=100 */
export const ZImportQueueQuery = z.object({
  limit: nullAsAbsent(zInteger(1, CONNECTOR_LIMITS.queueMax).default(CONNECTOR_LIMITS.queueDefault)),
});

export const ZImportQueueRecord = z.object({
  IDInterne: z.string(),
  TypeEnreg: z.string(),
  RefDoc: z.string(),
  /** ISO 8601 with the installation's offset (formatZonedIso). */
  DateHeure: ZConnectorDateTime,
  NumLigne: z.number().int(),
  TypeElement: z.string(),
  Enreg: z.string(),
});
export type TImportQueueRecord = z.output<typeof ZImportQueueRecord>;

export const ZImportQueueAnswer = z.object({ records: z.array(ZImportQueueRecord) });
export type TImportQueueAnswer = z.output<typeof ZImportQueueAnswer>;

/**
 * The `{IDInterne}` of POST /import-records/{IDInterne}/result: an id a record can have (the same
 * check as a record's `IDInterne`). The route answers any other 404, like an id the installation
 * does not have.
 */
export const ZImportRecordIdParam = z.object({ IDInterne: zIdentifier(CONNECTOR_LIMITS.idMaxChars) });

export const ZImportResult = z.object({
  Etat: zCode([1, -1] as const, RESULT_ETAT_MESSAGE),
  Log: nullAsAbsent(zFreeText(CONNECTOR_LIMITS.logMaxChars).optional()),
  Fichier: nullAsAbsent(ZConnectorFile.optional()),
});
export type TImportResult = z.output<typeof ZImportResult>;

export const ZImportResultAnswer = z.object({
  IDInterne: z.string(),
  Etat: z.union([z.literal(1), z.literal(-1)]),
});
export type TImportResultAnswer = z.output<typeof ZImportResultAnswer>;

// ---------------------------------------------------------------------------------------------
// POST /api/connector/v1/transactions

export const ZTransaction = z.object({
  ID: zIdentifier(CONNECTOR_LIMITS.idMaxChars),
  /** 1 error, 0 success; also `"1"`, `true`. */
  Err: zCode([0, 1] as const, 'Err doit valoir 0 (succès) ou 1 (erreur)', true),
  DateHeureTrt: ZConnectorDateTime,
  NumTransaction: zOptionalText(CONNECTOR_LIMITS.shortTextMaxChars),
  TypeDoc: zOptionalText(CONNECTOR_LIMITS.shortTextMaxChars),
  RefDoc: zOptionalText(CONNECTOR_LIMITS.shortTextMaxChars),
  IDTablette: zOptionalText(CONNECTOR_LIMITS.shortTextMaxChars),
  LibelleTablette: zOptionalText(CONNECTOR_LIMITS.shortTextMaxChars),
  Log: nullAsAbsent(zFreeText(CONNECTOR_LIMITS.logMaxChars).default('')),
});
export type TTransaction = z.output<typeof ZTransaction>;

/** `transactions`: a list of at most 1 000 items of `item`. */
function zTransactionList<T extends z.ZodType>(item: T) {
  return z
    .array(item, { error: typeError('liste de transactions attendue') })
    .max(
      CONNECTOR_LIMITS.transactionsPerRequest,
      `au plus ${nf.format(CONNECTOR_LIMITS.transactionsPerRequest)} transactions par requête`,
    );
}

export const ZTransactionsRequest = z.object({ transactions: zTransactionList(ZTransaction) });
export type TTransactionsRequest = z.output<typeof ZTransactionsRequest>;

/** The same request with its transactions left unchecked (see ZImportRecordsEnvelope). */
export const ZTransactionsEnvelope = z.object({ transactions: zTransactionList(z.unknown()) });

// ---------------------------------------------------------------------------------------------
// Errors

/** The error codes of the connector API, with their HTTP status. */
export const CONNECTOR_ERROR_CODES = {
  'invalid-request': 400,
  /** POST /automate: an address the console does not send orders to (docs/connector-api.md). */
  'address-refused': 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'payload-too-large': 413,
  'unsupported-media-type': 415,
  /** The stored configuration cannot be read: the administrator repairs it (Diagnostic screen). */
  'unreadable-configuration': 422,
  'too-many-requests': 429,
  'internal-error': 500,
  /** The database cannot answer for a moment (with Retry-After): retry later. */
  unavailable: 503,
  /**
   * The server holds as many bytes of this installation's (or everyone's) requests as it allows
   * at once (with Retry-After): send the same request again then. Not a failure of the request.
   */
  'server-busy': 503,
  /** The installation's storage quota would be passed: nothing was written. */
  'insufficient-storage': 507,
} as const;
export type TConnectorErrorCode = keyof typeof CONNECTOR_ERROR_CODES;

/** Every error answer of the connector API: a stable code and a French message. */
export const ZConnectorError = z.object({ error: z.string(), message: z.string() });
export type TConnectorError = z.output<typeof ZConnectorError>;

// ---------------------------------------------------------------------------------------------
// Validation messages

/** A zod path as the connector reads it: `records[3].DateHeure` (array positions from 0). */
export function connectorFieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

/** At most this many invalid fields are spelled out in one message. */
const MESSAGE_ISSUES = 5;

/** One message for the invalid fields: `records[3].DateHeure : …`, separated by `;`. */
export function connectorRequestMessage(issues: readonly TPayloadIssue[]): string {
  const listed = issues
    .slice(0, MESSAGE_ISSUES)
    .map((i) => (i.path === '' ? i.message : `${i.path}\u00a0: ${i.message}`));
  const rest = issues.length - listed.length;
  if (rest > 0) listed.push(`et ${rest} autre${rest > 1 ? 's' : ''} erreur${rest > 1 ? 's' : ''}`);
  return `Requête invalide\u00a0: ${listed.join('\u202f; ')}`;
}

/**
 * Validates a connector request with its schema: the normal form, or the invalid fields (paths
 * written `records[3].DateHeure`) and the French message of the 400 answer.
 */
export function parseConnectorRequest<T extends z.ZodType>(
  schema: T,
  data: unknown,
): { ok: true; value: z.output<T> } | { ok: false; issues: TPayloadIssue[]; message: string } {
  const r = parsePayload(schema, data);
  if (r.ok) return r;
  const issues = r.issues.map((i) => ({ path: dotPathToConnector(i.path), message: i.message }));
  return { ok: false, issues, message: connectorRequestMessage(issues) };
}

/**
 * One item of a batch checked on its own, its issues named as in the whole request
 * (`records[3].DateHeure`, `records[3]` for the item itself): with an envelope schema and this,
 * a batch is checked item by item with the messages of the whole schema.
 */
export function parseConnectorItem<T extends z.ZodType>(
  schema: T,
  item: unknown,
  itemPath: string,
): { ok: true; value: z.output<T> } | { ok: false; issues: TPayloadIssue[] } {
  const r = parsePayload(schema, item);
  if (r.ok) return r;
  return {
    ok: false,
    issues: r.issues.map((i) => {
      const path = dotPathToConnector(i.path);
      return { path: path === '' ? itemPath : `${itemPath}.${path}`, message: i.message };
    }),
  };
}

/**
 * parsePayload writes paths with dots (`records.3.DateHeure`). No member name of this API is made
 * of digits only (Info and DerSynchro names start with a letter), so a digit-only segment is an
 * array position.
 */
function dotPathToConnector(path: string): string {
  if (path === '') return '';
  return connectorFieldPath(path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)));
}
