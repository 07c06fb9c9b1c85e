import { z } from 'zod';
import { isXmlSafeText, parsePayload, type TPayloadIssue } from './config-sections.ts';
import { parseIsoDateTime } from './connector-time.ts';

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

// ---------------------------------------------------------------------------------------------
// Limits

const MB = 1024 * 1024;

export const CONNECTOR_LIMITS = {
  /** Import records per POST /import-records. */
  recordsPerRequest: 500,
  /** Transactions per POST /transactions. */
  transactionsPerRequest: 1000,
  /** GET /import-records/queue: default and largest `limit`. */
  queueDefault: 100,
  queueMax: 500,
  /** `Enreg` (the record's XML), in UTF-8 bytes: 50 MB (docs/spec-notes.md, Import records). */
  enregMaxBytes: 50 * MB,
  /** `Fichier.Contenu`, decoded bytes. */
  fileMaxBytes: 25 * MB,
  fileNameMaxChars: 255,
  /** `IDInterne`, transaction `ID`. */
  idMaxChars: 100,
  /** TypeEnreg, RefDoc, TypeElement, TypeDoc, NumTransaction, IDTablette, LibelleTablette. */
  shortTextMaxChars: 255,
  /** `Log` of a record, a result or a transaction. */
  logMaxChars: 1_000_000,
  /** One value of `Info` or `DerSynchro`, `Status`, `StatusLibelle`. */
  configValueMaxChars: 10_000,
  /** Children of `Info` or of `DerSynchro` in one PATCH. */
  configKeysMax: 100,
  /** Entries of `Sources` in one PATCH. */
  sourcesMax: 100,
  /** `Data`, in UTF-8 bytes (the whole configuration is limited to 60 MB). */
  dataMaxBytes: 50 * MB,
  /** Automate report: `version`, `machineName`. */
  automateVersionMaxChars: 100,
  machineNameMaxChars: 255,
} as const;

const nf = new Intl.NumberFormat('fr-FR');

// ---------------------------------------------------------------------------------------------
// Building blocks

/** 'champ obligatoire' for a missing member, else `expected`. */
function typeError(expected: string): (issue: { input?: unknown }) => string {
  return (issue) => (issue.input === undefined ? 'champ obligatoire' : expected);
}

/** `null` for an optional member means the member is absent. */
function nullAsAbsent<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (v === null ? undefined : v), schema);
}

/**
 * UTF-8 length of a text (a lone surrogate counts as the 3 bytes of U+FFFD); counting stops once
 * it exceeds `limit`. Only the non-ASCII runs are visited one character at a time, so a mostly
 * ASCII text (XML, base64) costs one regular expression pass.
 */
export function utf8ByteLength(text: string, limit = Infinity): number {
  if (text.length > limit) return text.length;
  let bytes = text.length;
  const runs = /[\u0080-\uFFFF]+/g;
  for (let m = runs.exec(text); m !== null; m = runs.exec(text)) {
    const run = m[0];
    for (let i = 0; i < run.length; i++) {
      const c = run.charCodeAt(i);
      if (c < 0x800) bytes += 1;
      else if (c >= 0xd800 && c <= 0xdbff && (run.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        bytes += 2; // the pair's two units already count 2 of its 4 bytes
        i++;
      } else bytes += 2;
    }
    if (bytes > limit) return bytes;
  }
  return bytes;
}

/** True when the text holds no NUL (PostgreSQL cannot store it) and no lone surrogate. */
function isStorableText(value: string): boolean {
  // eslint-disable-next-line no-control-regex -- finding NUL is the point
  return !/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value);
}

const CONTROL_MESSAGE = 'contient un caractère non autorisé (caractère de contrôle ou invalide)';

/**
 * A text of the connector, at most `max` characters, without characters XML refuses. A safe
 * integer is taken as its digits (`812` for `"812"`).
 */
function zText(max: number) {
  return z
    .union([z.string(), z.number()], { error: typeError('texte attendu') })
    .transform((v, ctx) => {
      if (typeof v === 'number') {
        if (Number.isSafeInteger(v)) return String(v);
        ctx.addIssue({ code: 'custom', message: 'texte attendu', input: v });
        return z.NEVER;
      }
      return v;
    })
    .pipe(
      z
        .string()
        .max(max, `au plus ${nf.format(max)} caractères`)
        .refine(isXmlSafeText, CONTROL_MESSAGE),
    );
}

/** A text that has a default when absent (or null). */
function zOptionalText(max: number) {
  return nullAsAbsent(zText(max).default(''));
}

/** An identifier: a non-blank text (an integer is taken as its digits). */
function zIdentifier(max: number) {
  return zText(max).refine((v) => v.trim() !== '', 'ne doit pas être vide');
}

/** A free text (logs): anything PostgreSQL can store. */
function zFreeText(max: number) {
  return z
    .string({ error: typeError('texte attendu') })
    .max(max, `au plus ${nf.format(max)} caractères`)
    .refine(isStorableText, 'contient un caractère nul ou invalide');
}

/** An integer within [min, max], also sent as a digit string (`"3"`). */
function zInteger(min: number, max: number) {
  const message = `nombre entier attendu, entre ${nf.format(min)} et ${nf.format(max)}`;
  return z.union([z.number(), z.string()], { error: typeError(message) }).transform((v, ctx) => {
    const n = typeof v === 'number' ? v : /^\s*[+-]?\d{1,16}\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < min || n > max) {
      ctx.addIssue({ code: 'custom', message, input: v });
      return z.NEVER;
    }
    return n;
  });
}

/** One of a few integer codes, also sent as digit strings; `message` says what they mean. */
function zCode<const T extends readonly number[]>(codes: T, message: string, booleans = false) {
  return z
    .union([z.number(), z.string(), z.boolean()], { error: typeError(message) })
    .transform((v, ctx): T[number] => {
      let n: number = NaN;
      if (typeof v === 'number') n = v;
      else if (typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v)) n = Number(v);
      else if (typeof v === 'boolean' && booleans) n = v ? 1 : 0;
      if (!codes.includes(n)) {
        ctx.addIssue({ code: 'custom', message, input: v });
        return z.NEVER;
      }
      return n as T[number];
    });
}

const DATE_TIME_MESSAGE =
  'date et heure ISO 8601 attendues (2025-11-14T09:12:00, ou avec décalage 2025-11-14T09:12:00+01:00)';

/** An ISO 8601 date-time, with or without offset (see connector-time.ts); kept as written. */
export const ZConnectorDateTime = z
  .string({ error: typeError(DATE_TIME_MESSAGE) })
  .max(64, DATE_TIME_MESSAGE)
  .refine((v) => parseIsoDateTime(v) !== null, DATE_TIME_MESSAGE);

// ---------------------------------------------------------------------------------------------
// Base64 and files

const BASE64_PADDED = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The canonical form (standard alphabet, padded, no blanks) of a base64 text; blanks and line
 * breaks (MIME style) are removed and missing padding added. Null when it is not base64.
 */
export function normaliseBase64(value: string): string | null {
  let s = value;
  if (!BASE64_PADDED.test(s)) {
    s = s.replace(/[\t\n\r ]+/g, '');
    if (!BASE64_PADDED.test(s)) return null;
  }
  let pads = 0;
  while (pads < 2 && s.charCodeAt(s.length - 1 - pads) === 61) pads++;
  const body = s.length - pads;
  if (body % 4 === 1) return null;
  if (pads > 0) return (body + pads) % 4 === 0 ? s : null;
  return body % 4 === 0 ? s : s + '='.repeat(4 - (body % 4));
}

/** Bytes a canonical base64 text decodes to. */
export function base64DecodedSize(canonical: string): number {
  let pads = 0;
  while (pads < 2 && canonical.charCodeAt(canonical.length - 1 - pads) === 61) pads++;
  return Math.floor(((canonical.length - pads) * 3) / 4);
}

// Largest accepted encoded text: the base64 of the largest file, with room for MIME line breaks.
const MAX_BASE64_CHARS = Math.ceil((4 * Math.ceil(CONNECTOR_LIMITS.fileMaxBytes / 3) * 78) / 76) + 4;

const FILE_TOO_LARGE = `fichier trop volumineux (au plus ${nf.format(CONNECTOR_LIMITS.fileMaxBytes / MB)} Mo une fois décodé)`;

/** `Fichier`: a file name and its content in base64 (output canonical, see normaliseBase64). */
export const ZConnectorFile = z.object(
  {
    Nom: zIdentifier(CONNECTOR_LIMITS.fileNameMaxChars),
    Contenu: z
      .string({ error: typeError('contenu en base64 attendu') })
      .max(MAX_BASE64_CHARS, FILE_TOO_LARGE)
      .transform((v, ctx) => {
        const canonical = normaliseBase64(v);
        if (canonical === null) {
          ctx.addIssue({ code: 'custom', message: 'contenu en base64 invalide', input: '' });
          return z.NEVER;
        }
        if (base64DecodedSize(canonical) > CONNECTOR_LIMITS.fileMaxBytes) {
          ctx.addIssue({ code: 'custom', message: FILE_TOO_LARGE, input: '' });
          return z.NEVER;
        }
        return canonical;
      }),
  },
  { error: typeError('objet { Nom, Contenu } attendu') },
);
export type TConnectorFile = z.output<typeof ZConnectorFile>;

// ---------------------------------------------------------------------------------------------
// Record XML size (docs/spec-notes.md, Import records)

/** `x` of the size messages: megabytes with one decimal, French style (`51,2`). */
function megabytes(bytes: number): string {
  return new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(
    bytes / MB,
  );
}

/** The spec's message for a record XML over 50 MB (docs/spec-notes.md, Import records), with its size. */
export function recordXmlTooLargeMessage(bytes: number): string {
  return `Le fichier XML est trop volumineux (${megabytes(bytes)} MB). La taille maximale autorisée est de 50MB.`;
}

/**
 * `Enreg`: the record's XML as the connector stores it. Checked here: a non-empty text within
 * 50 MB. Its XML (well-formed, no DTD, no entity, characters, depth) is checked by the
 * configuration engine's `parseRecord`, which the server runs on every record.
 */
export const ZEnreg = z
  .string({ error: typeError('XML de l’enregistrement attendu') })
  .refine((v) => v.trim() !== '', 'ne doit pas être vide')
  .superRefine((v, ctx) => {
    const bytes = utf8ByteLength(v, CONNECTOR_LIMITS.enregMaxBytes);
    if (bytes > CONNECTOR_LIMITS.enregMaxBytes) {
      ctx.addIssue({ code: 'custom', message: recordXmlTooLargeMessage(utf8ByteLength(v)), input: '' });
    }
  });

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
    );
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
        (v) => utf8ByteLength(v, CONNECTOR_LIMITS.dataMaxBytes) <= CONNECTOR_LIMITS.dataMaxBytes,
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
export type TImportQueueQuery = z.output<typeof ZImportQueueQuery>;

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

/** The `{IDInterne}` of POST /import-records/{IDInterne}/result. */
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
