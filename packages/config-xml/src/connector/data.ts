import { CONNECTOR_LIMITS, utf8ByteLength } from '@synchro/contracts';
import { ConfigXmlError, lineColumnAt } from '../errors.ts';
import type { ConfigDocument } from '../document.ts';
import { MAX_DEPTH, scanDocument } from '../xml/scan.ts';
import { deepestAt, provedByStoredData } from './data-delta.ts';

const MB = 1024 * 1024;

function dataError(
  code: string,
  message: string,
  details: { line?: number; column?: number } = {},
): ConfigXmlError {
  return new ConfigXmlError(code, `Data\u00a0: ${message}`, details);
}

/** XML white space (what may surround the element; it is dropped). */
function isXmlBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/**
 * Checks the `Data` the connector sends: one well-formed `<Data>` element and nothing around it
 * but blanks (no declaration, comment, processing instruction or byte order mark), checked by the
 * configuration's scanner (no DOCTYPE, no entity but the five predefined ones, no character XML
 * refuses, at most 256 levels counting the root `<Connexion>` it goes in), at most 50 MB in UTF-8
 * bytes. Returns the element's text, blanks around it removed; throws ConfigXmlError (message
 * starting `Data :`) otherwise. With `stored` (the document the Data goes into), only the part
 * that differs from its stored Data is scanned when that proves the whole (data-delta.ts); the
 * result and every refusal are the same as without it.
 */
export function checkDataElement(text: string, stored?: ConfigDocument): string {
  return checkData(text, stored, false);
}

/**
 * checkDataElement; `sizeChecked` when the text has passed the same size rule already (the
 * patch schema's, ZConnectorConfigPatch: utf8ByteLength within CONNECTOR_LIMITS.dataMaxBytes).
 */
export function checkData(text: string, stored: ConfigDocument | undefined, sizeChecked: boolean): string {
  const max = CONNECTOR_LIMITS.dataMaxBytes;
  // A UTF-16 unit is at most 3 UTF-8 bytes: a text that short is not counted.
  if (!sizeChecked && text.length * 3 > max && utf8ByteLength(text, max) > max) {
    const size = (utf8ByteLength(text) / MB).toFixed(1).replace('.', ',');
    throw dataError(
      'too-large',
      `la section est trop volumineuse (${size} Mo). La taille maximale autorisée est de ${max / MB} Mo.`,
    );
  }
  let from = 0;
  let to = text.length;
  while (from < to && isXmlBlank(text.charCodeAt(from))) from++;
  while (to > from && isXmlBlank(text.charCodeAt(to - 1))) to--;
  if (from === to) throw dataError('empty', 'l’élément <Data> est vide ou absent.');
  // Against the stored Data (when given), only what differs is scanned (data-delta.ts).
  if (stored !== undefined && provedByStoredData(text, from, to, stored)) {
    return from === 0 && to === text.length ? text : text.slice(from, to);
  }
  let layout;
  try {
    // The text as sent, so that lines and columns of a fault are the connector's.
    layout = scanDocument(text, { maxBytes: Infinity, rootName: 'Data' });
  } catch (e) {
    if (!(e instanceof ConfigXmlError)) throw e;
    const details: { line?: number; column?: number } = {};
    if (e.line !== undefined) details.line = e.line;
    if (e.column !== undefined) details.column = e.column;
    throw dataError(e.code, e.message, details);
  }
  // In the document, Data has one more ancestor (<Connexion>) than here: the scanner's depth rule
  // (an element left open with MAX_DEPTH ancestors is too deep), one level earlier.
  const deep = deepestAt(layout.index);
  if (deep !== -1) {
    const { line, column } = lineColumnAt(text, layout.index.start[deep] as number);
    throw dataError(
      'depth',
      `le document est trop profond (plus de ${MAX_DEPTH} niveaux) (ligne ${line}, colonne ${column})`,
      { line, column },
    );
  }
  if (layout.rootStart !== from || layout.rootEnd !== to) {
    throw dataError(
      'malformed',
      'seul l’élément <Data> est attendu, sans déclaration XML, commentaire ni instruction autour.',
    );
  }
  return from === 0 && to === text.length ? text : text.slice(from, to);
}
