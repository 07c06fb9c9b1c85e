import {
  CONNECTOR_LIMITS,
  isStorableText,
  isXmlSafeText,
  parseIsoDateTime,
  utf8Within,
  type TImportRecord,
  type TTransaction,
} from '@synchro/contracts';

/**
 * The items of a batch as a connector sends them nearly always (every member of its plain type,
 * within its limits) read without the schema: the same value as ZImportRecord or ZTransaction
 * would give, at a tenth of the cost (the schema costs some 12 µs per record; a batch of 500 is
 * checked in a worker thread that runs at a lower priority). Anything else (a number for a text,
 * a digit string for a number, a file, a fault) gives null, and the item goes through the schema,
 * which names every fault in its own words (item-checks.ts). What is accepted here is checked
 * against the schema's output by a property test (plain-items.test.ts).
 */

type Item = Record<string, unknown>;

/** Non-blank: what `v.trim() !== ''` says (`\s` is the set trim removes). */
const NON_BLANK = /\S/;

function isItem(value: unknown): value is Item {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** zIdentifier(max) for a string: the string itself, or undefined. */
function identifier(v: unknown, max: number): string | undefined {
  return typeof v === 'string' && v.length <= max && isXmlSafeText(v) && NON_BLANK.test(v) ? v : undefined;
}

/** zOptionalText(max): '' when absent or null, a string as it is, else undefined. */
function optionalText(v: unknown, max: number): string | undefined {
  if (v === undefined || v === null) return '';
  return typeof v === 'string' && v.length <= max && isXmlSafeText(v) ? v : undefined;
}

/** ZConnectorDateTime. */
function dateTime(v: unknown): string | undefined {
  return typeof v === 'string' && v.length <= 64 && parseIsoDateTime(v) !== null ? v : undefined;
}

/** zFreeText(max) for a string. */
function freeText(v: unknown, max: number): string | undefined {
  return typeof v === 'string' && v.length <= max && isStorableText(v) ? v : undefined;
}

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;
const SHORT = CONNECTOR_LIMITS.shortTextMaxChars;

/** ZImportRecord's output for a plain record, or null (then read it with the schema). */
export function plainImportRecord(item: unknown): TImportRecord | null {
  if (!isItem(item)) return null;
  const IDInterne = identifier(item.IDInterne, CONNECTOR_LIMITS.idMaxChars);
  const TypeEnreg = optionalText(item.TypeEnreg, SHORT);
  const RefDoc = optionalText(item.RefDoc, SHORT);
  const DateHeure = dateTime(item.DateHeure);
  const TypeElement = optionalText(item.TypeElement, SHORT);
  const n = item.NumLigne;
  const NumLigne =
    n === undefined || n === null
      ? 0
      : typeof n === 'number' && Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX
        ? n
        : undefined;
  const e = item.Etat;
  const Etat = e === 0 || e === 1 || e === -1 ? e : undefined;
  const log = item.Log;
  const Log = log === undefined || log === null ? null : freeText(log, CONNECTOR_LIMITS.logMaxChars);
  const Enreg = item.Enreg;
  if (
    IDInterne === undefined ||
    TypeEnreg === undefined ||
    RefDoc === undefined ||
    DateHeure === undefined ||
    TypeElement === undefined ||
    NumLigne === undefined ||
    Etat === undefined ||
    Log === undefined ||
    typeof Enreg !== 'string' ||
    !NON_BLANK.test(Enreg) ||
    !utf8Within(Enreg, CONNECTOR_LIMITS.enregMaxBytes) ||
    (item.Fichier !== undefined && item.Fichier !== null)
  ) {
    return null;
  }
  const record: TImportRecord = {
    IDInterne,
    TypeEnreg,
    RefDoc,
    DateHeure,
    NumLigne,
    TypeElement,
    Etat,
    Enreg,
  };
  if (Log !== null) record.Log = Log;
  return record;
}

/** ZTransaction's output for a plain transaction, or null (then read it with the schema). */
export function plainTransaction(item: unknown): TTransaction | null {
  if (!isItem(item)) return null;
  const ID = identifier(item.ID, CONNECTOR_LIMITS.idMaxChars);
  const err = item.Err;
  const DateHeureTrt = dateTime(item.DateHeureTrt);
  const NumTransaction = optionalText(item.NumTransaction, SHORT);
  const TypeDoc = optionalText(item.TypeDoc, SHORT);
  const RefDoc = optionalText(item.RefDoc, SHORT);
  const IDTablette = optionalText(item.IDTablette, SHORT);
  const LibelleTablette = optionalText(item.LibelleTablette, SHORT);
  const log = item.Log;
  const Log = log === undefined || log === null ? '' : freeText(log, CONNECTOR_LIMITS.logMaxChars);
  if (
    ID === undefined ||
    (err !== 0 && err !== 1) ||
    DateHeureTrt === undefined ||
    NumTransaction === undefined ||
    TypeDoc === undefined ||
    RefDoc === undefined ||
    IDTablette === undefined ||
    LibelleTablette === undefined ||
    Log === undefined
  ) {
    return null;
  }
  return { ID, Err: err, DateHeureTrt, NumTransaction, TypeDoc, RefDoc, IDTablette, LibelleTablette, Log };
}
