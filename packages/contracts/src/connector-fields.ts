import { z } from 'zod';
import { isXmlSafeText } from './config-sections.ts';
import { parseIsoDateTime } from './connector-time.ts';

/**
 * The fields of the connector API v1 (connector-api.ts holds the routes' requests and answers):
 * its limits, the field schemas every route builds on (tolerant input, one normal output form,
 * French lower-case messages), base64 files and the record XML size rule.
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
  /**
   * `Enreg` (the record's XML), in UTF-8 bytes: 50 MB (docs/spec-notes.md, Import records and
   * transactions).
   */
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
// What the OpenAPI document says of a field

/** A JSON Schema (draft 2020-12, OpenAPI 3.1's). */
export type TJsonSchema = Record<string, unknown>;

const PUBLISHED_INPUT = new WeakMap<object, TJsonSchema>();

/**
 * `schema`, with what it accepts as JSON Schema. zod describes a transform's input by its types
 * only (`"type": ["string", "number"]` for a text: no length, no bound, a boolean wherever a code
 * is): each builder below states here, from the same arguments as its checks, what it accepts.
 */
function published<T extends z.ZodType>(schema: T, json: TJsonSchema): T {
  PUBLISHED_INPUT.set(schema, json);
  return schema;
}

/**
 * What a field schema of this file accepts, as JSON Schema (connector-openapi.ts writes it in the
 * document in place of zod's own description of its input); undefined for any other schema.
 */
export function publishedInput(schema: unknown): TJsonSchema | undefined {
  const json = typeof schema === 'object' && schema !== null ? PUBLISHED_INPUT.get(schema) : undefined;
  return json === undefined ? undefined : structuredClone(json);
}

/** A whole number JavaScript holds exactly: the numbers a text field takes as their digits. */
const SAFE_INTEGER: TJsonSchema = {
  type: 'integer',
  minimum: Number.MIN_SAFE_INTEGER,
  maximum: Number.MAX_SAFE_INTEGER,
};

/** Not blank: at least one character that is not white space (as `trim()` sees it). */
const NOT_BLANK = '\\S';

// ---------------------------------------------------------------------------------------------
// Building blocks

/** 'champ obligatoire' for a missing member, else `expected`. */
export function typeError(expected: string): (issue: { input?: unknown }) => string {
  return (issue) => (issue.input === undefined ? 'champ obligatoire' : expected);
}

/** `null` for an optional member means the member is absent. */
export function nullAsAbsent<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (v === null ? undefined : v), schema);
}

/** `Buffer.byteLength` where there is one (Node), else null. */
const nativeUtf8Length: ((text: string, encoding: 'utf8') => number) | null =
  (globalThis as { Buffer?: { byteLength(text: string, encoding: 'utf8'): number } }).Buffer?.byteLength ??
  null;

/**
 * UTF-8 length of a text (a lone surrogate counts as the 3 bytes of U+FFFD); counting stops once
 * it exceeds `limit`. Only the non-ASCII runs are visited one character at a time, so a mostly
 * ASCII text (XML, base64) costs one regular expression pass.
 */
export function utf8ByteLength(text: string, limit = Infinity): number {
  if (text.length > limit) return text.length;
  // Node's native count (the server) gives the same number, lone surrogates included, some
  // twenty times faster on a 50 MB text; the loop below is for the browser.
  if (nativeUtf8Length !== null) return nativeUtf8Length(text, 'utf8');
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

/**
 * True when the UTF-8 length of a text is at most `limit`. A UTF-16 unit is at most 3 bytes, so a
 * text of up to a third of `limit` units is not counted at all (a record's XML of a few KB, against
 * 50 MB: a regular expression pass over every record of a batch saved).
 */
export function utf8Within(text: string, limit: number): boolean {
  return text.length * 3 <= limit || utf8ByteLength(text, limit) <= limit;
}

/** True when the text holds no NUL (PostgreSQL cannot store it) and no lone surrogate. */
export function isStorableText(value: string): boolean {
  // eslint-disable-next-line no-control-regex -- finding NUL is the point
  return !/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value);
}

const CONTROL_MESSAGE = 'contient un caractère non autorisé (caractère de contrôle ou invalide)';

/**
 * A text of the connector, at most `max` characters, without characters XML refuses. A safe
 * integer is taken as its digits (`812` for `"812"`).
 */
export function zText(max: number) {
  return published(zTextChecks(max), textInput(max));
}

/** What zText accepts, as JSON Schema; `text`: more of what its string form must be. */
function textInput(max: number, text: TJsonSchema = {}): TJsonSchema {
  return { anyOf: [{ type: 'string', maxLength: max, ...text }, SAFE_INTEGER] };
}

function zTextChecks(max: number) {
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
export function zOptionalText(max: number) {
  return nullAsAbsent(zText(max).default(''));
}

/** An identifier: a non-blank text (an integer is taken as its digits). */
export function zIdentifier(max: number) {
  return published(
    zTextChecks(max).refine((v) => v.trim() !== '', 'ne doit pas être vide'),
    textInput(max, { pattern: NOT_BLANK }),
  );
}

/** A free text (logs): anything PostgreSQL can store. */
export function zFreeText(max: number) {
  return z
    .string({ error: typeError('texte attendu') })
    .max(max, `au plus ${nf.format(max)} caractères`)
    .refine(isStorableText, 'contient un caractère nul ou invalide');
}

/** An integer written as text (digits, a sign, blanks around). */
const INTEGER_TEXT = /^\s*[+-]?\d{1,16}\s*$/;

/** An integer within [min, max], also sent as a digit string (`"3"`). */
export function zInteger(min: number, max: number) {
  const message = `nombre entier attendu, entre ${nf.format(min)} et ${nf.format(max)}`;
  const schema = z.union([z.number(), z.string()], { error: typeError(message) }).transform((v, ctx) => {
    const n = typeof v === 'number' ? v : INTEGER_TEXT.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < min || n > max) {
      ctx.addIssue({ code: 'custom', message, input: v });
      return z.NEVER;
    }
    return n;
  });
  return published(schema, {
    anyOf: [
      { type: 'integer', minimum: min, maximum: max },
      {
        type: 'string',
        pattern: INTEGER_TEXT.source,
        description: 'The same integer as its digits (same bounds).',
      },
    ],
  });
}

/** A whole number written as text, of any length (a code's digits: `"01"` is 1). */
const CODE_TEXT = /^\s*[+-]?\d+\s*$/;

/**
 * The texts CODE_TEXT takes that are one of `codes` (`Number` of the text): leading zeros, a sign,
 * blanks around; `-0` is 0.
 */
function codeTextPattern(codes: readonly number[]): string {
  const one = (c: number) => (c === 0 ? '[+-]?0+' : c > 0 ? `\\+?0*${c}` : `-0*${-c}`);
  return `^\\s*(?:${codes.map(one).join('|')})\\s*$`;
}

/**
 * One of a few integer codes, also sent as digit strings (and, with `booleans`, `true` for 1 and
 * `false` for 0); `message` says what they mean.
 */
export function zCode<const T extends readonly number[]>(codes: T, message: string, booleans = false) {
  const schema = z
    .union([z.number(), z.string(), z.boolean()], { error: typeError(message) })
    .transform((v, ctx): T[number] => {
      let n: number = NaN;
      if (typeof v === 'number') n = v;
      else if (typeof v === 'string' && CODE_TEXT.test(v)) n = Number(v);
      else if (typeof v === 'boolean' && booleans) n = v ? 1 : 0;
      if (!codes.includes(n)) {
        ctx.addIssue({ code: 'custom', message, input: v });
        return z.NEVER;
      }
      return n as T[number];
    });
  return published(schema, {
    anyOf: [
      { enum: [...codes] },
      { type: 'string', pattern: codeTextPattern(codes), description: 'The same code as its digits.' },
      ...(booleans ? [{ type: 'boolean', description: '`true` for 1, `false` for 0.' }] : []),
    ],
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
// Record XML size (docs/spec-notes.md, Import records and transactions)

/** `x` of the size messages: megabytes with one decimal, French style (`51,2`). */
function megabytes(bytes: number): string {
  return new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(
    bytes / MB,
  );
}

/**
 * The spec's message for a record XML over 50 MB (docs/spec-notes.md, Import records and
 * transactions), with its size.
 */
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
    if (!utf8Within(v, CONNECTOR_LIMITS.enregMaxBytes)) {
      ctx.addIssue({ code: 'custom', message: recordXmlTooLargeMessage(utf8ByteLength(v)), input: '' });
    }
  });
