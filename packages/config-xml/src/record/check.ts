import { CONNECTOR_LIMITS, recordXmlTooLargeMessage, utf8ByteLength, utf8Within } from '@synchro/contracts';
import { ConfigXmlError } from '../errors.ts';
import { ElementIndex } from '../xml/index.ts';
import { scanDocument } from '../xml/scan.ts';
import { isPlainRecordXml } from './plain-check.ts';

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
  checkRecordSize(text);
  const layout = scanDocument(text, { maxBytes: Infinity, rootName: null });
  return { text, index: layout.index };
}

function checkRecordSize(text: string): void {
  if (typeof text !== 'string' || text.length === 0 || text === '\uFEFF') {
    throw new ConfigXmlError('empty', 'Le fichier XML est vide.');
  }
  if (!utf8Within(text, RECORD_MAX_BYTES)) {
    throw new ConfigXmlError('too-large', recordXmlTooLargeMessage(utf8ByteLength(text)));
  }
}

/** The index checkRecord fills again for every record (one per thread). */
let scratch: ElementIndex | null = null;
/** A scratch index grown past this many elements is dropped after its record (memory kept low). */
const SCRATCH_MAX_ELEMENTS = 1 << 14;

/**
 * The same check as parseRecord, same faults and messages, for a caller that keeps nothing of
 * the record (the connector's batches check every record they store): its elements are indexed
 * into one index filled again for each record, so that checking a record allocates almost nothing
 * (a new index is some ten typed arrays per record, a batch's worth of garbage). A record as
 * connectors write it nearly always is recognised without it (plain-check.ts).
 */
export function checkRecord(text: string): void {
  checkRecordSize(text);
  // The usual record in one lean pass; the scanner for anything else and for every fault's words
  // (an unusual record is then read twice, both passes linear).
  if (isPlainRecordXml(text)) return;
  const index = scratch ?? new ElementIndex('');
  scratch = null;
  try {
    scanDocument(text, { maxBytes: Infinity, rootName: null, reuseIndex: index });
  } finally {
    // Kept for the next record (without this one's text), unless a huge record grew it.
    if (index.capacity <= SCRATCH_MAX_ELEMENTS) scratch = index.reuse('');
  }
}
