import { decodeConnectorText } from '../codec.ts';
import { scanDocument } from '../xml/scan.ts';

/**
 * The automate's answer to an order (docs/spec-notes.md, Automate): XML with `RetSync` (1 = accepted) and
 * `RetInfo`, a French message for the user that the real service sometimes leaves with artefacts.
 */
export interface AutomateAnswer {
  /** RetSync as an integer; null when absent or not an integer. */
  retSync: number | null;
  /** RetInfo cleaned for display (cleanRetInfo); null when absent or empty. */
  retInfo: string | null;
}

/** Largest answer read (a real one is a few hundred bytes). */
export const AUTOMATE_ANSWER_MAX_BYTES = 64 * 1024;

/** Longest RetInfo shown; a longer one is cut with an ellipsis. */
export const RET_INFO_MAX_CHARS = 2000;

/**
 * Reads an answer with the configuration's scanner (any root; no DTD, only the five predefined
 * entities and numeric references, nothing expanded, at most AUTOMATE_ANSWER_MAX_BYTES). The first
 * `RetSync` and `RetInfo` elements anywhere in it are taken. Throws ConfigXmlError when the text
 * is not well-formed XML.
 */
export function readAutomateAnswer(text: string): AutomateAnswer {
  const { index: ix } = scanDocument(text, { maxBytes: AUTOMATE_ANSWER_MAX_BYTES, rootName: null });
  const first = (name: string) => {
    const id = ix.idOf(name);
    if (id < 0) return -1;
    for (let k = 0; k < ix.count; k++) if (ix.nameId[k] === id) return k;
    return -1;
  };
  const retSyncEl = first('RetSync');
  const retInfoEl = first('RetInfo');
  const retSyncText = retSyncEl < 0 ? '' : ix.xmlText(retSyncEl).trim();
  const retInfo = retInfoEl < 0 ? '' : cleanRetInfo(ix.xmlText(retInfoEl));
  return {
    retSync: /^[+-]?\d{1,9}$/.test(retSyncText) ? Number(retSyncText) : null,
    retInfo: retInfo === '' ? null : retInfo,
  };
}

// Named references left in the text by tools that escaped it twice (or wrote HTML): the five of
// XML and the usual French ones.
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  apos: "'",
  quot: '"',
  nbsp: '\u00a0',
  laquo: '«',
  raquo: '»',
  rsquo: '’',
  lsquo: '‘',
  hellip: '…',
  euro: '€',
  deg: '°',
  agrave: 'à',
  acirc: 'â',
  ccedil: 'ç',
  eacute: 'é',
  egrave: 'è',
  ecirc: 'ê',
  euml: 'ë',
  icirc: 'î',
  iuml: 'ï',
  ocirc: 'ô',
  ugrave: 'ù',
  ucirc: 'û',
  Eacute: 'É',
  Egrave: 'È',
  Agrave: 'À',
  Ccedil: 'Ç',
};

const REFERENCE = /&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z]{2,8});/g;

function isShownCodePoint(cp: number): boolean {
  return (
    cp === 9 ||
    cp === 10 ||
    (cp >= 0x20 && cp < 0x7f) ||
    (cp >= 0xa0 && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff))
  );
}

/** One level of references replaced; unknown or unsafe ones are left as they are. */
function replaceReferences(text: string): string {
  return text.replace(REFERENCE, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const cp = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return isShownCodePoint(cp) ? String.fromCodePoint(cp) : whole;
    }
    return NAMED[ref] ?? whole;
  });
}

// Control characters other than the tab and the line feed.
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * RetInfo as the user should read it (RetInfo is the XML-unescaped text of the element):
 * - the connector's text convention decoded (`ComplÃ¨te` → `Complète`: UTF-8 read as Latin-1,
 *   then sent as UTF-8 again), with config-xml's codec;
 * - references left by double escaping replaced, level after level (`&amp;apos;` in the XML is
 *   `&apos;` here, then `'`; `&amp;amp;apos;` takes one more), numeric ones included;
 * - literal `/n` line markers and CR LF become line breaks; other control characters go;
 * - blanks at line ends and more than one empty line in a row removed; cut at RET_INFO_MAX_CHARS.
 */
export function cleanRetInfo(raw: string): string {
  let text = decodeConnectorText(raw);
  for (let level = 0; level < 4; level++) {
    const next = replaceReferences(text);
    if (next === text) break;
    text = next;
  }
  // References may have revealed text in the connector's convention (`&#195;&#169;`).
  text = decodeConnectorText(text);
  text = text
    .replace(/\r\n?/g, '\n')
    .replaceAll('/n', '\n')
    .replace(CONTROLS, '')
    .split('\n')
    .map(trimLineEnd)
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (text.length > RET_INFO_MAX_CHARS) text = `${text.slice(0, RET_INFO_MAX_CHARS - 1).trimEnd()}…`;
  return text;
}

/**
 * The line without its trailing blanks (space, tab, no-break space). A loop from the end, not
 * `/[ \t\u00a0]+$/`: that pattern, tried at each position of a long run of blanks followed by
 * text, takes time quadratic in the run (63 000 blanks: 3.9 s of the request thread).
 */
function trimLineEnd(line: string): string {
  let end = line.length;
  while (end > 0) {
    const c = line.charCodeAt(end - 1);
    if (c !== 0x20 && c !== 0x09 && c !== 0xa0) break;
    end--;
  }
  return end === line.length ? line : line.slice(0, end);
}
