import { CONNECTOR_LIMITS, utf8ByteLength } from '@synchro/contracts';
import { ConfigXmlError, lineColumnAt } from '../errors.ts';
import { MAX_DEPTH, scanDocument } from '../xml/scan.ts';

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
 * starting `Data :`) otherwise.
 */
export function checkDataElement(text: string): string {
  const max = CONNECTOR_LIMITS.dataMaxBytes;
  // A UTF-16 unit is at most 3 UTF-8 bytes: a text that short is not counted.
  if (text.length * 3 > max && utf8ByteLength(text, max) > max) {
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
  const ix = layout.index;
  const ancestors = new Int32Array(ix.count);
  for (let k = 1; k < ix.count; k++) {
    ancestors[k] = (ancestors[ix.parent[k] as number] as number) + 1;
    if (ancestors[k] === MAX_DEPTH - 1 && !ix.selfClosing(k)) {
      const { line, column } = lineColumnAt(text, ix.start[k] as number);
      throw dataError(
        'depth',
        `le document est trop profond (plus de ${MAX_DEPTH} niveaux) (ligne ${line}, colonne ${column})`,
        { line, column },
      );
    }
  }
  if (layout.rootStart !== from || layout.rootEnd !== to) {
    throw dataError(
      'malformed',
      'seul l’élément <Data> est attendu, sans déclaration XML, commentaire ni instruction autour.',
    );
  }
  return from === 0 && to === text.length ? text : text.slice(from, to);
}
