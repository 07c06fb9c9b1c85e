import { BANG, DQ, EQ, GT, isWs, LT, QMARK, sameChars, SEMI, SLASH, SQ } from '../xml/chars.ts';
import { isNameCode, isNameStartCode } from '../xml/names.ts';
import { findInvalidChar, MAX_DEPTH, PLAIN_XML_DECLARATION } from '../xml/scan.ts';

/**
 * A record's XML as connectors write it nearly always, recognised in one lean pass: what this
 * says yes to, the full scanner (scan.ts) accepts too, at a fraction of its cost (no index of the
 * elements, no interned names, nothing allocated). Anything else is left to the scanner, which
 * also words every fault: a plain XML 1.0 declaration at most; elements and attributes of ASCII
 * names; the five predefined entities and no other reference; comments and CDATA sections; no
 * processing instruction, DOCTYPE or end tag with spaces. record.test.ts (« plain check »)
 * compares both on the fixtures and on generated and mutated documents.
 */

/** 2 for an ASCII name start character (letters, `_`, `:`), 1 for the other name characters. */
const ASCII_NAME = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_NAME[c] = isNameStartCode(c) ? 2 : isNameCode(c) ? 1 : 0;

/** Most attributes in one tag handled here (more: the scanner's set of names). */
const MOST_ATTRIBUTES = 16;

/** Where each open element's name starts, and its length (MAX_DEPTH at most: reused, one pass at a time). */
const openStart = new Int32Array(MAX_DEPTH);
const openLength = new Int32Array(MAX_DEPTH);
const attributeStart = new Int32Array(MOST_ATTRIBUTES);
const attributeLength = new Int32Array(MOST_ATTRIBUTES);

/** End of the ASCII name at `i` (i when none starts there), or -1 when it runs into a non-ASCII character. */
function asciiNameEnd(t: string, i: number, n: number): number {
  if (i >= n) return i;
  const c = t.charCodeAt(i);
  if (c >= 0x80) return -1;
  if (ASCII_NAME[c] !== 2) return i;
  i++;
  while (i < n) {
    const d = t.charCodeAt(i);
    if (d >= 0x80) return -1;
    if (ASCII_NAME[d] === 0) return i;
    i++;
  }
  return i;
}

/** Offset after a predefined entity's `;` at `a` (`&`), or -1 for any other reference. */
function predefinedEntityEnd(t: string, a: number): number {
  const c = t.charCodeAt(a + 1);
  if (c === 97) {
    if (t.startsWith('amp;', a + 1)) return a + 5;
    if (t.startsWith('apos;', a + 1)) return a + 6;
  } else if (c === 108 || c === 103) {
    if (t.charCodeAt(a + 2) === 116 && t.charCodeAt(a + 3) === SEMI) return a + 4; // &lt; &gt;
  } else if (c === 113 && t.startsWith('quot;', a + 1)) return a + 6;
  return -1;
}

/**
 * True when `text` is certainly a well-formed record (see above); false says nothing: the
 * scanner decides. Any root element; the size is the caller's check (checkRecord).
 */
export function isPlainRecordXml(text: string): boolean {
  const t = text;
  const n = t.length;
  if (n === 0 || findInvalidChar(t, 0, n) !== -1) return false;
  let p = t.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (t.startsWith('<?xml', p)) {
    const e = t.indexOf('?>', p + 5);
    if (e === -1 || !PLAIN_XML_DECLARATION.test(t.slice(p, e + 2))) return false;
    p = e + 2;
  }
  let depth = 0;
  /** 0 before the root, 1 inside, 2 after. */
  let state = 0;
  // The next `&` and `]]>` at or after the pass's position (-1: none; -2: not looked for yet),
  // looked for again only once passed: every character is searched once.
  let amp = -2;
  let cdataEnd = -2;
  /** Whether [from, to) holds only predefined entities as references. */
  const plainReferences = (from: number, to: number): boolean => {
    if (amp < from && amp !== -1) amp = t.indexOf('&', from);
    while (amp !== -1 && amp < to) {
      const e = predefinedEntityEnd(t, amp);
      if (e === -1 || e > to) return false;
      amp = t.indexOf('&', e);
    }
    return true;
  };
  while (p < n) {
    if (t.charCodeAt(p) !== LT) {
      let q = t.indexOf('<', p);
      if (q === -1) q = n;
      if (state !== 1) {
        for (let i = p; i < q; i++) if (!isWs(t.charCodeAt(i))) return false;
      } else {
        if (!plainReferences(p, q)) return false;
        if (cdataEnd < p && cdataEnd !== -1) cdataEnd = t.indexOf(']]>', p);
        if (cdataEnd !== -1 && cdataEnd < q) return false;
      }
      p = q;
      continue;
    }
    const c2 = t.charCodeAt(p + 1);
    if (c2 === SLASH) {
      if (state !== 1) return false;
      const start = openStart[depth - 1] as number;
      const len = openLength[depth - 1] as number;
      const gt = p + 2 + len;
      if (gt >= n || t.charCodeAt(gt) !== GT || !sameChars(t, start, p + 2, len)) return false;
      depth--;
      p = gt + 1;
      if (depth === 0) state = 2;
      continue;
    }
    if (c2 === BANG) {
      if (t.startsWith('<!--', p)) {
        const e = t.indexOf('--', p + 4);
        if (e === -1 || t.charCodeAt(e + 2) !== GT) return false;
        p = e + 3;
        continue;
      }
      if (state === 1 && t.startsWith('<![CDATA[', p)) {
        const e = t.indexOf(']]>', p + 9);
        if (e === -1) return false;
        p = e + 3;
        continue;
      }
      return false;
    }
    if (c2 === QMARK || state === 2) return false;
    const nameEnd = asciiNameEnd(t, p + 1, n);
    if (nameEnd <= p + 1) return false;
    // Attributes, then `>` or `/>`.
    let i = nameEnd;
    let attributes = 0;
    let selfClosing = false;
    for (;;) {
      const ws = i;
      while (i < n && isWs(t.charCodeAt(i))) i++;
      if (i >= n) return false;
      const c = t.charCodeAt(i);
      if (c === GT) {
        i++;
        break;
      }
      if (c === SLASH) {
        if (t.charCodeAt(i + 1) !== GT) return false;
        i += 2;
        selfClosing = true;
        break;
      }
      if (i === ws || attributes === MOST_ATTRIBUTES) return false;
      const an = asciiNameEnd(t, i, n);
      if (an <= i) return false;
      const len = an - i;
      for (let k = 0; k < attributes; k++) {
        if (attributeLength[k] === len && sameChars(t, attributeStart[k] as number, i, len)) return false;
      }
      attributeStart[attributes] = i;
      attributeLength[attributes] = len;
      attributes++;
      i = an;
      while (i < n && isWs(t.charCodeAt(i))) i++;
      if (t.charCodeAt(i) !== EQ) return false;
      i++;
      while (i < n && isWs(t.charCodeAt(i))) i++;
      const quote = t.charCodeAt(i);
      if (quote !== DQ && quote !== SQ) return false;
      const e = t.indexOf(quote === DQ ? '"' : "'", i + 1);
      if (e === -1) return false;
      for (let k = i + 1; k < e; k++) if (t.charCodeAt(k) === LT) return false;
      if (!plainReferences(i + 1, e)) return false;
      i = e + 1;
    }
    if (!selfClosing) {
      if (depth >= MAX_DEPTH) return false;
      openStart[depth] = p + 1;
      openLength[depth] = nameEnd - p - 1;
      depth++;
      state = 1;
    } else if (state === 0) state = 2;
    p = i;
  }
  return state === 2;
}
