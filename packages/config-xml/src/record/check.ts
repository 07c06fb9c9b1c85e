import { CONNECTOR_LIMITS, recordXmlTooLargeMessage, utf8ByteLength, utf8Within } from '@synchro/contracts';
import { ConfigXmlError } from '../errors.ts';
import type { ElementIndex } from '../xml/index.ts';
import { scanDocument } from '../xml/scan.ts';

/**
 * Largest import record XML (`Enreg`), in UTF-8 bytes: 50 MB (docs/spec-notes.md, Import records
 * and transactions).
 */
export const RECORD_MAX_BYTES = CONNECTOR_LIMITS.enregMaxBytes;

/** A checked import record: its text and the index of its elements (0 is the root). */
export interface RecordDocument {
  readonly text: string;
  readonly index: ElementIndex;
}

/**
 * The safe check of an import record's XML (any root element): at most 50 MB in UTF-8 bytes
 * (checked before anything else), well-formed, no DOCTYPE, no entity but the five predefined ones
 * (numeric references are fine), no character XML refuses, at most 256 levels. It is the
 * configuration's scanner, so nothing is ever expanded. Throws ConfigXmlError (French message,
 * line and column of the fault).
 */
export function parseRecord(text: string): RecordDocument {
  if (typeof text !== 'string' || text.length === 0 || text === '\uFEFF') {
    throw new ConfigXmlError('empty', 'Le fichier XML est vide.');
  }
  if (!utf8Within(text, RECORD_MAX_BYTES)) {
    throw new ConfigXmlError('too-large', recordXmlTooLargeMessage(utf8ByteLength(text)));
  }
  const layout = scanDocument(text, { maxBytes: Infinity, rootName: null });
  return { text, index: layout.index };
}
