import type { ElementIndex } from '../xml/index.ts';
import { parseRecord, type RecordDocument } from './check.ts';

/**
 * The documents attached to an import record (docs/spec-notes.md, Import records and
 * transactions): where the nearest `Table` leaf (child of the element holding the fields, or of
 * one of its ancestors) reads `ged` or `images`, `NomDocument`/`BinaireDocument` or
 * `NomFichier`/`Photo` carry a file name and the file in base64.
 */
export interface TRecordAttachment {
  /** File name as shown (decoded from the connector convention); '' when the record has none. */
  name: string;
  /** Bytes the base64 content decodes to; 0 when there is no content. */
  size: number;
  /** Element names of the pair: `NomDocument`/`BinaireDocument` or `NomFichier`/`Photo`. */
  nameElement: string;
  contentElement: string;
  /** Path of the element holding the pair, from the root (`SyncNuxiDev/Enregistrement`). */
  path: string;
  /**
   * The content element's raw text in the record, [contentStart, contentEnd): slice it once to
   * get the base64 (-1 when the element is absent).
   */
  contentStart: number;
  contentEnd: number;
}

const PAIRS = [
  ['NomDocument', 'BinaireDocument'],
  ['NomFichier', 'Photo'],
] as const;
const ATTACHMENT_TABLES = new Set(['ged', 'images']);

/** The attached documents of a record, in document order; the base64 is never copied. */
export function recordAttachments(input: string | RecordDocument): TRecordAttachment[] {
  const doc = typeof input === 'string' ? parseRecord(input) : input;
  const ix = doc.index;
  const ids = new Set<number>();
  for (const pair of PAIRS) for (const name of pair) if (ix.idOf(name) >= 0) ids.add(ix.idOf(name));
  if (ids.size === 0) return [];

  const holders: number[] = [];
  const seen = new Set<number>();
  for (let k = 0; k < ix.count; k++) {
    if (!ids.has(ix.nameId[k] as number)) continue;
    const parent = ix.parent[k] as number;
    if (parent >= 0 && !seen.has(parent)) {
      seen.add(parent);
      holders.push(parent);
    }
  }

  const scope = new Map<number, boolean>();
  const out: TRecordAttachment[] = [];
  for (const holder of holders) {
    if (!inAttachmentTable(ix, holder, scope)) continue;
    for (const [nameElement, contentElement] of PAIRS) {
      const nameEl = ix.child(holder, nameElement);
      const content = ix.child(holder, contentElement);
      if (nameEl < 0 && content < 0) continue;
      const contentStart = content < 0 ? -1 : (ix.openEnd[content] as number);
      const contentEnd = content < 0 ? -1 : ix.closeStart(content);
      out.push({
        name: nameEl < 0 ? '' : ix.value(nameEl).trim(),
        size: content < 0 ? 0 : base64Size(doc.text, contentStart, contentEnd),
        nameElement,
        contentElement,
        path: pathOf(ix, holder),
        contentStart,
        contentEnd,
      });
    }
  }
  return out;
}

/** True when the nearest `Table` leaf at or above `el` names an attachment table. */
function inAttachmentTable(ix: ElementIndex, el: number, cache: Map<number, boolean>): boolean {
  const visited: number[] = [];
  let answer = false;
  for (let a = el; a >= 0; a = ix.parent[a] as number) {
    const known = cache.get(a);
    if (known !== undefined) {
      answer = known;
      break;
    }
    visited.push(a);
    const table = ix.child(a, 'Table');
    if (table >= 0 && ix.firstChild(table) === -1) {
      answer = ATTACHMENT_TABLES.has(ix.xmlText(table).trim().toLowerCase());
      break;
    }
  }
  for (const a of visited) cache.set(a, answer);
  return answer;
}

function pathOf(ix: ElementIndex, el: number): string {
  const names: string[] = [];
  for (let a = el; a >= 0; a = ix.parent[a] as number) names.push(ix.name(a));
  return names.reverse().join('/');
}

/**
 * Decoded size of the base64 in text[from, to): base64 characters counted, `=` padding, blanks,
 * character references (`&#13;`), comments and CDATA markers skipped.
 */
function base64Size(text: string, from: number, to: number): number {
  // Usual case, one regular expression pass: base64 characters only, then up to two `=`.
  const other = /[^A-Za-z0-9+/]/g;
  other.lastIndex = from;
  const m = other.exec(text);
  const dataEnd = m === null || m.index >= to ? to : m.index;
  let p = dataEnd;
  while (p < to && p - dataEnd < 2 && text.charCodeAt(p) === 61) p++;
  if (p === to) return Math.floor(((dataEnd - from) * 3) / 4);
  let chars = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47) {
      chars++;
    } else if (c === 38 /* & */) {
      const semi = text.indexOf(';', i);
      i = semi === -1 || semi >= to ? to : semi;
    } else if (c === 60 /* < */) {
      if (text.startsWith('<![CDATA[', i)) i += 8;
      else if (text.startsWith('<!--', i)) {
        const close = text.indexOf('-->', i + 4);
        i = close === -1 || close >= to ? to : close + 2;
      } else {
        const gt = text.indexOf('>', i);
        i = gt === -1 || gt >= to ? to : gt;
      }
    } else if (c === 93 /* ] */ && text.startsWith(']]>', i)) i += 2;
  }
  return Math.floor((chars * 3) / 4);
}
