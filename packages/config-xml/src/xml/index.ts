import { displayValue } from '../codec.ts';
import { unescapeXml } from './escape.ts';
import { parseChildren, SourceText, xmlText, XElement } from './tree.ts';

/**
 * The element index built by the scanner in its validating pass: for every element of the
 * document (in start-tag order; 0 is the root), its offsets, parent, first child, next sibling
 * and name. Readers walk it directly: reading a view allocates only the values it returns.
 */
export class ElementIndex {
  /** The indexed text (set again by `reuse`). */
  text: string;
  count = 0;
  start: Int32Array;
  openEnd: Int32Array;
  end: Int32Array;
  parent: Int32Array;
  nextSibling: Int32Array;
  nameId: Int32Array;
  readonly names: string[] = [];
  private readonly ids = new Map<string, number>();

  constructor(text: string) {
    this.text = text;
    const cap = Math.max(64, (text.length / 24) | 0);
    this.start = new Int32Array(cap);
    this.openEnd = new Int32Array(cap);
    this.end = new Int32Array(cap);
    this.parent = new Int32Array(cap);
    this.nextSibling = new Int32Array(cap);
    this.nameId = new Int32Array(cap);
  }

  /**
   * The same index emptied for another text, its arrays kept (their capacity only grows): a
   * scan that only validates (record/check.ts, checkRecord) allocates nothing per document.
   */
  reuse(text: string): this {
    this.text = text;
    this.count = 0;
    if (this.names.length > 0) {
      this.names.length = 0;
      this.ids.clear();
      this.table.fill(0);
      this.tableCount = 0;
    }
    return this;
  }

  /** Elements the arrays hold without growing. */
  get capacity(): number {
    return this.start.length;
  }

  /** An index built elsewhere (another thread: transfer.ts), from its arrays and names. */
  static fromParts(
    text: string,
    count: number,
    names: readonly string[],
    arrays: Record<'start' | 'openEnd' | 'end' | 'parent' | 'nextSibling' | 'nameId', Int32Array>,
  ): ElementIndex {
    const index = new ElementIndex('');
    Object.assign(index, { text, count, ...arrays });
    for (const name of names) index.intern(name);
    return index;
  }

  private grow(): void {
    const cap = this.start.length * 2;
    const g = (a: Int32Array): Int32Array => {
      const b = new Int32Array(cap);
      b.set(a);
      return b;
    };
    this.start = g(this.start);
    this.openEnd = g(this.openEnd);
    this.end = g(this.end);
    this.parent = g(this.parent);
    this.nextSibling = g(this.nextSibling);
    this.nameId = g(this.nameId);
  }

  /** Interned id of a name (created when new). */
  intern(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.ids.set(name, id);
    }
    return id;
  }

  private table = new Int32Array(1024);
  private tableCount = 0;

  /**
   * Interned id of the name text[from, to) whose hash is `hash` (computed by the scanner while it
   * read the name): no string is allocated for a name already seen.
   */
  internAt(from: number, to: number, hash: number): number {
    const t = this.text;
    const len = to - from;
    let mask = this.table.length - 1;
    let h = hash & mask;
    for (;;) {
      const slot = this.table[h] as number;
      if (slot === 0) break;
      const name = this.names[slot - 1] as string;
      if (name.length === len && sameText(name, t, from)) return slot - 1;
      h = (h + 1) & mask;
    }
    const id = this.intern(t.slice(from, to));
    if (id + 1 > this.tableCount) {
      this.tableCount++;
      if (this.tableCount * 2 > this.table.length) {
        // grow and rehash (names are few: this happens at most a handful of times)
        const old = this.names;
        this.table = new Int32Array(this.table.length * 2);
        mask = this.table.length - 1;
        for (let k = 0; k < old.length; k++) {
          let g = nameHash(old[k] as string) & mask;
          while (this.table[g] !== 0) g = (g + 1) & mask;
          this.table[g] = k + 1;
        }
        return id;
      }
      this.table[h] = id + 1;
    }
    return id;
  }

  /** Id of a name, -1 when no element has it. */
  idOf(name: string): number {
    return this.ids.get(name) ?? -1;
  }

  /** Records a start tag; `lastChild` tracks the previous sibling to link. */
  add(nameId: number, start: number, openEnd: number, parent: number, prevSibling: number): number {
    if (this.count === this.start.length) this.grow();
    const k = this.count++;
    this.start[k] = start;
    this.openEnd[k] = openEnd;
    this.end[k] = openEnd;
    this.parent[k] = parent;
    this.nextSibling[k] = -1;
    this.nameId[k] = nameId;
    if (prevSibling >= 0) this.nextSibling[prevSibling] = k;
    return k;
  }

  /**
   * First child element of `el`, or -1. Elements are numbered in start-tag order, so a first
   * child is always the element right after its parent: nothing is stored for it.
   */
  firstChild(el: number): number {
    const c = el + 1;
    return c < this.count && this.parent[c] === el ? c : -1;
  }

  /**
   * Offset of the `</` of the end tag of `el` (its openEnd when self-closing). Not stored: an end
   * tag is `</name>`, or `</name` and white space before `>`, and holds no other `<`.
   */
  closeStart(el: number): number {
    const end = this.end[el] as number;
    const openEnd = this.openEnd[el] as number;
    if (end === openEnd) return openEnd;
    const at = end - (this.names[this.nameId[el] as number] as string).length - 3;
    return this.text.charCodeAt(at) === 60 ? at : this.text.lastIndexOf('<', end - 1);
  }

  name(el: number): string {
    return this.names[this.nameId[el] as number] as string;
  }

  selfClosing(el: number): boolean {
    return this.end[el] === this.openEnd[el];
  }

  // -------------------------------------------------------------------------------------------
  // Navigation (-1 stands for "absent" everywhere)

  /** First child element named `name`, or -1. */
  child(el: number, name: string): number {
    if (el < 0) return -1;
    const id = this.idOf(name);
    if (id < 0) return -1;
    for (let k = this.firstChild(el); k !== -1; k = this.nextSibling[k] as number) {
      if (this.nameId[k] === id) return k;
    }
    return -1;
  }

  /**
   * First child element whose name has the interned id `id` (from idOf), or -1: loops over many
   * elements look their names up once instead of once per element.
   */
  childWithId(el: number, id: number): number {
    if (el < 0 || id < 0) return -1;
    for (let k = this.firstChild(el); k !== -1; k = this.nextSibling[k] as number) {
      if (this.nameId[k] === id) return k;
    }
    return -1;
  }

  /** Child elements named `name`. */
  children(el: number, name: string): number[] {
    const out: number[] = [];
    if (el < 0) return out;
    const id = this.idOf(name);
    if (id < 0) return out;
    for (let k = this.firstChild(el); k !== -1; k = this.nextSibling[k] as number) {
      if (this.nameId[k] === id) out.push(k);
    }
    return out;
  }

  /** First element at a `/`-separated path below `el`, or -1. */
  path(el: number, path: string): number {
    let cur = el;
    for (const part of path.split('/')) {
      if (cur < 0) return -1;
      cur = this.child(cur, part);
    }
    return cur;
  }

  /** XML text content of an element (its text and CDATA; child elements, comments, PIs left out). */
  xmlText(el: number): string {
    const from = this.openEnd[el] as number;
    const to = this.closeStart(el);
    if (from >= to) return '';
    const raw = this.text.slice(from, to);
    if (raw.indexOf('<') === -1) return unescapeXml(raw);
    // comments, CDATA or child elements inside: the lossless parser knows how to read them
    const src = new SourceText(this.text, '\n', '  ', '/>');
    const holder = new XElement(src, '', -1, -1, -1, -1, false, parseChildren(src, from, to, null, 0));
    return xmlText(holder);
  }

  /** Display value of an element (decoded from the connector's convention). */
  value(el: number): string {
    const from = this.openEnd[el] as number;
    const to = this.closeStart(el);
    // Most values are plain text: one look at their characters decides that the display value
    // is the source slice itself (no markup, reference, CR or non-ASCII character to convert).
    if (isPlainAscii(this.text, from, to)) return this.text.slice(from, to);
    return displayValue(this.xmlText(el));
  }

  /** Display value of the child `name` of `el`, null when absent. */
  childValue(el: number, name: string): string | null {
    const c = this.child(el, name);
    return c < 0 ? null : this.value(c);
  }
}

/**
 * Whether text[from, to) is ASCII without `<`, `&` or CR: its XML text and its display value are
 * then the slice itself (unescapeXml, decodeConnectorText and undoDoubleEscaping change nothing).
 */
export function isPlainAscii(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80 || c === 60 || c === 38 || c === 13) return false;
  }
  return true;
}

/** Whether `name` is written at `from` in `text` (a loop of character codes: no builtin call). */
function sameText(name: string, text: string, from: number): boolean {
  for (let k = 0; k < name.length; k++) if (name.charCodeAt(k) !== text.charCodeAt(from + k)) return false;
  return true;
}

/** The hash the scanner computes over a name's characters (h = h * 31 + c, 32 bits). */
export function nameHash(name: string): number {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (Math.imul(h, 31) + name.charCodeAt(i)) | 0;
  return h >>> 0;
}
