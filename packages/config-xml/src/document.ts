import { ConfigXmlError } from './errors.ts';
import { scanDocument, type DocumentLayout, type ScanOptions, type SectionRange } from './xml/scan.ts';
import type { ElementIndex } from './xml/index.ts';
import { SourceText, XElement, parseChildren, type XNode } from './xml/tree.ts';

/**
 * The legacy order of the root's children (docs/spec-notes.md, The configuration document); a
 * missing section is created at its place in this order.
 */
export const SECTION_ORDER = [
  'Complement',
  'Sources',
  'Liaisons_Externes',
  'Planifications',
  'Info',
  'DerSynchro',
  'Data',
  'Donnees_A_Synchroniser',
  'Exclusions',
  'Terminaux',
] as const;
export type SectionName = (typeof SECTION_ORDER)[number];

/**
 * A parsed configuration document: the validated text, where each root child lies, and the
 * sections parsed so far (each is parsed the first time a reader asks for it).
 */
export class ConfigDocument {
  readonly text: string;
  readonly layout: DocumentLayout;
  readonly src: SourceText;
  private readonly parsed = new Map<string, XElement | null>();
  private readonly memos = new Map<string, unknown>();

  constructor(text: string, layout: DocumentLayout) {
    this.text = text;
    this.layout = layout;
    this.src = new SourceText(text, layout.newline, detectIndentUnit(text, layout), detectSelfClose(text));
  }

  /** Every element of the document (built by the validating scan), for the readers. */
  get index(): ElementIndex {
    return this.layout.index;
  }

  /**
   * A value computed once per document (the Data lists two views read, the global authorisations
   * every terminal view needs). Callers never hand it out as it is: they copy what they return.
   */
  memo<T>(key: string, compute: () => T): T {
    if (!this.memos.has(key)) this.memos.set(key, compute());
    return this.memos.get(key) as T;
  }

  /** Range of the first root child with that name, or null. */
  range(name: string): SectionRange | null {
    for (const s of this.layout.sections) if (s.name === name) return s;
    return null;
  }

  /** Exact source text of the first root child with that name, or null when absent. */
  sectionText(name: string): string | null {
    const r = this.range(name);
    return r ? this.text.slice(r.start, r.end) : null;
  }

  /**
   * The first root child with that name as a tree (null when absent). `depth` limits how far it is
   * parsed eagerly (see parseChildren); deeper elements are read when asked for. The fully parsed
   * tree is cached for readers; edits ask for a fresh one.
   */
  section(name: string, options: { depth?: number; fresh?: boolean } = {}): XElement | null {
    const depth = options.depth ?? Infinity;
    const cacheable = !options.fresh && depth === Infinity;
    if (cacheable && this.parsed.has(name)) return this.parsed.get(name) as XElement | null;
    const k = this.index.child(0, name);
    const el = k < 0 ? null : elementFromIndex(this.src, this.index, k, null, depth);
    if (cacheable) this.parsed.set(name, el);
    return el;
  }
}

/**
 * The lossless element for index entry `k`, its children built from the index for `depth` more
 * levels (no rescan of the text: only the gaps between child elements are read, for their text,
 * comments and the like); deeper elements are left lazy.
 */
export function elementFromIndex(
  src: SourceText,
  ix: ElementIndex,
  k: number,
  parent: XElement | null,
  depth: number,
): XElement {
  const start = ix.start[k] as number;
  const openEnd = ix.openEnd[k] as number;
  const end = ix.end[k] as number;
  const selfClosing = end === openEnd;
  const closeStart = ix.closeStart(k);
  const eager = !selfClosing && depth >= 0;
  const kids: XNode[] | null = selfClosing ? [] : eager ? [] : null;
  const el = new XElement(src, ix.name(k), start, openEnd, closeStart, end, selfClosing, kids);
  el.parent = parent;
  if (kids !== null && eager) {
    let pos = openEnd;
    for (let c = ix.firstChild(k); c !== -1; c = ix.nextSibling[c] as number) {
      const cs = ix.start[c] as number;
      if (cs > pos) for (const g of parseChildren(src, pos, cs, el, 0)) kids.push(g);
      kids.push(elementFromIndex(src, ix, c, el, depth - 1));
      pos = ix.end[c] as number;
    }
    if (closeStart > pos) for (const g of parseChildren(src, pos, closeStart, el, 0)) kids.push(g);
  }
  return el;
}

/** Indentation unit: the indentation of the root's children, two spaces when there is none. */
function detectIndentUnit(text: string, layout: DocumentLayout): string {
  const first = layout.sections[0];
  if (first) {
    let i = first.start;
    while (i > 0 && (text.charCodeAt(i - 1) === 32 || text.charCodeAt(i - 1) === 9)) i--;
    const c = text.charCodeAt(i - 1);
    if (i < first.start && (c === 10 || c === 13)) return text.slice(i, first.start);
  }
  return '  ';
}

/** `/>` or ` />`, as the document's first empty element is written. */
function detectSelfClose(text: string): string {
  const i = text.indexOf('/>');
  return i > 0 && text.charCodeAt(i - 1) === 32 ? ' />' : '/>';
}

/**
 * Parses a configuration document: size limit, byte order mark, well-formedness, no DOCTYPE, no
 * entity but the predefined ones, root `<Connexion>`. Sections are parsed later, when read.
 */
export function parseConfig(text: string, options: ScanOptions = {}): ConfigDocument {
  if (typeof text !== 'string') {
    throw new ConfigXmlError('empty', 'Le document de configuration est absent.');
  }
  return new ConfigDocument(text, scanDocument(text, options));
}

/** A ConfigDocument for a text or an already parsed document. */
export function asDocument(input: string | ConfigDocument, options?: ScanOptions): ConfigDocument {
  return typeof input === 'string' ? parseConfig(input, options) : input;
}
