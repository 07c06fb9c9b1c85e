import type { ConfigDocument } from '../document.ts';
import { ConfigXmlError } from '../errors.ts';
import type { ElementIndex } from '../xml/index.ts';
import { MAX_DEPTH, scanDocument } from '../xml/scan.ts';

/**
 * The connector sends its whole `Data` with each synchronisation, mostly as it is stored. The
 * stored `Data` was checked with its document, so only what differs needs the scanner:
 *
 * - the common prefix and suffix of the stored element and the new one are found;
 * - the changed part is widened to element boundaries of the stored `Data`: `a`, the last offset
 *   right after a tag (a start tag's or an end tag's `>`) at or before the first difference, and
 *   `b`, the first offset of a tag's `<` at or after the last one, both inside `Data`'s content;
 * - the new text between them is scanned with the elements open at `a` opened before it and the
 *   elements open at `b` closed after it: well-formed means that it leaves exactly the elements
 *   open at `b` open, so the whole new element scans as the stored one does before `a` and after
 *   `b`. Depth is checked as checkDataElement does (the wrapper repeats the real ancestors).
 *
 * Returns true when that proves the new element (blanks around it excluded: text[from, to)) as
 * safe as a full scan would; false when it cannot (any fault, a change in `Data`'s own tags):
 * the caller then scans the whole text, which also gives the exact message of a fault.
 */
export function provedByStoredData(text: string, from: number, to: number, doc: ConfigDocument): boolean {
  const ix = doc.index;
  const data = ix.child(0, 'Data');
  if (data < 0 || ix.selfClosing(data)) return false;
  const stored = doc.text;
  const sStart = ix.start[data] as number;
  const sEnd = ix.end[data] as number;
  const storedLength = sEnd - sStart;
  const length = to - from;
  const most = Math.min(storedLength, length);
  const prefix = commonPrefix(stored, sStart, text, from, most);
  if (prefix === most && storedLength === length) return true;
  const suffix = commonSuffix(stored, sEnd, text, to, most - prefix);
  const before = afterTagAtOrBefore(ix, data, sStart + prefix);
  const after = tagAtOrAfter(ix, data, sEnd - suffix);
  if (before === null || after === null) return false;
  const regionStart = from + (before.at - sStart);
  const regionEnd = to - (sEnd - after.at);
  const wrapped =
    before.open.map((k) => `<${ix.name(k)}>`).join('') +
    text.slice(regionStart, regionEnd) +
    after.open
      .map((k) => `</${ix.name(k)}>`)
      .reverse()
      .join('');
  try {
    return deepestAt(scanDocument(wrapped, { maxBytes: Infinity, rootName: 'Data' }).index) === -1;
  } catch (e) {
    if (e instanceof ConfigXmlError) return false;
    throw e;
  }
}

/**
 * First element that is too deep once `Data` has its document's ancestor `<Connexion>` (an element
 * left open with MAX_DEPTH ancestors), or -1.
 */
export function deepestAt(ix: ElementIndex): number {
  const ancestors = new Int32Array(ix.count);
  for (let k = 1; k < ix.count; k++) {
    ancestors[k] = (ancestors[ix.parent[k] as number] as number) + 1;
    if (ancestors[k] === MAX_DEPTH - 1 && !ix.selfClosing(k)) return k;
  }
  return -1;
}

/** Length of the common start of a[aFrom…] and b[bFrom…], at most `max` (chunks compared first). */
export function commonPrefix(a: string, aFrom: number, b: string, bFrom: number, max: number): number {
  let n = 0;
  let chunk = 256;
  while (n + chunk <= max) {
    if (a.slice(aFrom + n, aFrom + n + chunk) !== b.slice(bFrom + n, bFrom + n + chunk)) break;
    n += chunk;
    if (chunk < 65_536) chunk *= 2;
  }
  while (n < max && a.charCodeAt(aFrom + n) === b.charCodeAt(bFrom + n)) n++;
  return n;
}

/** Length of the common end of a[…aTo) and b[…bTo), at most `max`. */
export function commonSuffix(a: string, aTo: number, b: string, bTo: number, max: number): number {
  let n = 0;
  let chunk = 256;
  while (n + chunk <= max) {
    if (a.slice(aTo - n - chunk, aTo - n) !== b.slice(bTo - n - chunk, bTo - n)) break;
    n += chunk;
    if (chunk < 65_536) chunk *= 2;
  }
  while (n < max && a.charCodeAt(aTo - n - 1) === b.charCodeAt(bTo - n - 1)) n++;
  return n;
}

/** An offset of the stored text and the elements open there (outermost first, `Data` first). */
interface TBoundary {
  at: number;
  open: number[];
}

/**
 * The last offset at or before `x` right after a start or end tag inside `root`'s content
 * (root's own start tag included), with the elements open there; null when `x` is before the end
 * of root's start tag.
 */
export function afterTagAtOrBefore(ix: ElementIndex, root: number, x: number): TBoundary | null {
  if ((ix.openEnd[root] as number) > x) return null;
  const open = [root];
  let at = ix.openEnd[root] as number;
  let cur = root;
  for (let c = ix.firstChild(cur); c !== -1;) {
    if ((ix.end[c] as number) <= x) {
      at = ix.end[c] as number;
      c = ix.nextSibling[c] as number;
    } else if ((ix.openEnd[c] as number) <= x && !ix.selfClosing(c)) {
      // x is in c's content or end tag: continue inside c.
      at = ix.openEnd[c] as number;
      open.push(c);
      cur = c;
      c = ix.firstChild(cur);
    } else break; // x is inside c's start tag
  }
  return { at, open };
}

/**
 * The first offset at or after `y` of a start or end tag's `<` inside `root`'s content (root's
 * own end tag included), with the elements open there; null when `y` is after it.
 */
export function tagAtOrAfter(ix: ElementIndex, root: number, y: number): TBoundary | null {
  if (ix.closeStart(root) < y) return null;
  const open = [root];
  let cur = root;
  for (let c = ix.firstChild(cur); c !== -1;) {
    if ((ix.end[c] as number) <= y) {
      c = ix.nextSibling[c] as number; // c ends before y
    } else if ((ix.start[c] as number) >= y) {
      return { at: ix.start[c] as number, open };
    } else if (ix.selfClosing(c) || ix.closeStart(c) < y) {
      c = ix.nextSibling[c] as number; // y is inside c's only tag or its end tag
    } else {
      // y is in c's start tag or content (up to its end tag's `<`): continue inside c.
      open.push(c);
      cur = c;
      c = ix.firstChild(cur);
    }
  }
  return { at: ix.closeStart(cur), open };
}
