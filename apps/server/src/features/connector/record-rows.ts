import {
  base64DecodedSize,
  ZImportRecord,
  type TConnectorFile,
  type TImportRecord,
  type TPayloadIssue,
} from '@synchro/contracts';
import { checkRecord, ConfigXmlError, encodeConnectorText } from '@synchro/config-xml';
import { checkedRows, shownText, utcInstant } from './item-checks.ts';
import { plainImportRecord } from './plain-items.ts';

/**
 * The rows of import records (docs/connector-api.md): each record checked with its schema
 * (ZImportRecord), its `Enreg` through the engine's safe record check, its time read in the
 * installation's zone. Pure: it runs on the request thread for small batches and in a worker
 * thread for big ones (checked-batches.ts).
 */

/** The short texts the queue gives back, by their contract name. */
export const QUEUE_TEXTS = ['TypeEnreg', 'RefDoc', 'TypeElement'] as const;
export type QueueText = (typeof QUEUE_TEXTS)[number];

/** A file as it is written: its base64 text (decoded by the database), or a value written apart. */
export interface RecordFileRow {
  name: string;
  /** Decoded bytes. */
  size: number;
  /** Canonical base64; null once written apart (`blob`). */
  base64: string | null;
  blob: string | null;
}

export interface RecordRow {
  idInterne: string;
  typeEnreg: string;
  refDoc: string;
  typeElement: string;
  dateHeure: Date;
  numLigne: number;
  etat: number;
  /** The whole log, or only its beginning when the log is written apart (`logBlob`). */
  log: string;
  logBlob: string | null;
  /** The record's XML as sent; null once written apart (`enregBlob`). */
  enreg: string | null;
  enregBlob: string | null;
  /** JSON of the sent short texts that encoding the decoded text would not give back, or null. */
  sentTexts: string | null;
  file: RecordFileRow | null;
}

export function fileRow(file: TConnectorFile | undefined): RecordFileRow | null {
  if (!file) return null;
  return {
    name: shownText(file.Nom),
    size: base64DecodedSize(file.Contenu),
    base64: file.Contenu,
    blob: null,
  };
}

/** The sent texts that `encodeConnectorText(decoded)` would not give back unchanged. */
function sentTextsOf(record: TImportRecord, shown: Record<QueueText, string>): string | null {
  let kept: Partial<Record<QueueText, string>> | null = null;
  for (const name of QUEUE_TEXTS) {
    if (encodeConnectorText(shown[name]) !== record[name]) (kept ??= {})[name] = record[name];
  }
  return kept ? JSON.stringify(kept) : null;
}

/**
 * The rows of a slice of records (`offset`: index of its first one in the batch); faults named
 * with their index, and the faulty record left out.
 */
export function prepareRecords(
  records: readonly unknown[],
  zone: string,
  offset: number,
  issues: TPayloadIssue[],
): RecordRow[] {
  return checkedRows(
    ZImportRecord,
    records,
    'records',
    offset,
    issues,
    toRecordRow(zone, issues),
    plainImportRecord,
  );
}

function toRecordRow(zone: string, issues: TPayloadIssue[]) {
  return (r: TImportRecord, path: string): RecordRow => {
    try {
      checkRecord(r.Enreg);
    } catch (err) {
      if (!(err instanceof ConfigXmlError)) throw err;
      issues.push({ path: `${path}.Enreg`, message: err.message });
    }
    const shown = {
      TypeEnreg: shownText(r.TypeEnreg),
      RefDoc: shownText(r.RefDoc),
      TypeElement: shownText(r.TypeElement),
    };
    return {
      idInterne: r.IDInterne,
      typeEnreg: shown.TypeEnreg,
      refDoc: shown.RefDoc,
      typeElement: shown.TypeElement,
      dateHeure: utcInstant(r.DateHeure, zone, `${path}.DateHeure`, issues),
      numLigne: r.NumLigne,
      etat: r.Etat,
      log: r.Log ?? '',
      logBlob: null,
      enreg: r.Enreg,
      enregBlob: null,
      sentTexts: sentTextsOf(r, shown),
      file: fileRow(r.Fichier),
    };
  };
}
