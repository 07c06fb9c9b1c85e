import { parsePayload, type TPayloadIssue } from '@synchro/contracts';
import type { z } from 'zod';
import { decodeConnectorText, displayValue, encodeConnectorText } from '../codec.ts';
import {
  asDocument,
  parseConfig,
  SECTION_ORDER,
  type ConfigDocument,
  type SectionName,
} from '../document.ts';
import { ConfigXmlError } from '../errors.ts';
import { isTrue } from '../read/values.ts';
import { escapeText } from '../xml/escape.ts';
import {
  ELEMENT,
  TEXT,
  XElement,
  XText,
  childNamed,
  childrenNamed,
  serialize,
  touch,
  xmlText,
  type SourceText,
  type XNode,
} from '../xml/tree.ts';

/**
 * The machinery shared by the section edits: open one section of a document as a lossless tree
 * (created, empty, at its legacy place when missing), change nodes, and splice the rewritten
 * section back into the original text. Every helper leaves a node alone when it already holds the
 * wanted value, so an edit that changes nothing returns the original text.
 */

/** Validates a payload with its schema (French messages) before anything is changed. */
export function validatePayload<T extends z.ZodType>(schema: T, payload: unknown): z.output<T> {
  const r = parsePayload(schema, payload);
  if (r.ok) return r.value;
  throw invalidPayload(r.issues);
}

export function invalidPayload(issues: TPayloadIssue[]): ConfigXmlError {
  const list = issues
    .slice(0, 5)
    .map((i) => (i.path ? `${i.path} : ${i.message}` : i.message))
    .join(' ; ');
  return new ConfigXmlError('invalid-payload', `Données invalides : ${list}`, { issues });
}

export class SectionEditor {
  readonly doc: ConfigDocument;
  readonly src: SourceText;
  readonly section: XElement;
  /** The text given to the edit (returned as is when nothing changes). */
  private readonly original: string;

  private constructor(original: string, doc: ConfigDocument, section: XElement) {
    this.original = original;
    this.doc = doc;
    this.src = doc.src;
    this.section = section;
  }

  /**
   * Opens a root child for editing; `depth` as in ConfigDocument.section (deeper parts are parsed
   * when first touched). A missing section is first inserted, empty, at its legacy place.
   */
  static open(input: string | ConfigDocument, name: SectionName, depth = Infinity): SectionEditor {
    const doc0 = asDocument(input);
    let doc = doc0;
    if (!doc.range(name)) doc = parseConfig(insertEmptySection(doc, name), { maxBytes: Infinity });
    const section = doc.section(name, { depth, fresh: true }) as XElement;
    return new SectionEditor(doc0.text, doc, section);
  }

  /** The new document text: the original when nothing changed. */
  finish(): string {
    if (!this.section.dirty) return this.original;
    const r = this.doc.range(this.section.name);
    if (!r) throw new ConfigXmlError('internal', 'Section introuvable.');
    const t = this.doc.text;
    return t.slice(0, r.start) + serialize(this.section, this.src) + t.slice(r.end);
  }

  // -------------------------------------------------------------------------------------------
  // Node creation

  /** A fresh element; `content` is a text value (encoded to the connector's convention) or children. */
  el(name: string, content: string | XElement[] = []): XElement {
    const e = new XElement(this.src, name, -1, -1, -1, -1, true, []);
    if (typeof content === 'string') {
      if (content !== '') e.children = [this.textNode(content, e)];
    } else {
      for (const k of content) k.parent = e;
      e.children = content;
    }
    return e;
  }

  private textNode(value: string, parent: XElement): XText {
    const t = new XText(-1, -1, escapeText(encodeConnectorText(value), this.src.newline));
    t.parent = parent;
    return t;
  }

  private ws(indent: string, parent: XElement): XText {
    const t = new XText(-1, -1, this.src.newline + indent);
    t.parent = parent;
    return t;
  }

  // -------------------------------------------------------------------------------------------
  // Layout

  /** Blanks before an element when it starts its line; null when something precedes it on the line. */
  private lineIndent(el: XElement): string | null {
    if (el.fresh) return el.indent;
    const t = this.src.text;
    let i = el.start;
    while (i > 0) {
      const c = t.charCodeAt(i - 1);
      if (c === 32 || c === 9) i--;
      else if (c === 10 || c === 13) return t.slice(i, el.start);
      else return null;
    }
    return null;
  }

  /** Indentation for a new child of `parent`. */
  private childIndent(parent: XElement): string {
    for (const k of parent.children) {
      if (k.kind === ELEMENT) {
        const ind = this.lineIndent(k);
        if (ind !== null) return ind;
        break;
      }
    }
    return (this.lineIndent(parent) ?? '') + this.src.indentUnit;
  }

  /** True when the existing children of `parent` are written on one line with it. */
  private inline(parent: XElement): boolean {
    if (parent.fresh) return false;
    const first = parent.children.find((k) => k.kind === ELEMENT) as XElement | undefined;
    return first !== undefined && this.lineIndent(first) === null;
  }

  // -------------------------------------------------------------------------------------------
  // Structure changes

  /** Inserts `child` into `parent`: after `after`, before `before`, or after the last element child. */
  insert(parent: XElement, child: XElement, where: { after?: XElement; before?: XElement } = {}): XElement {
    child.parent = parent;
    const kids = parent.children;
    if (parent.fresh) {
      if (where.after) kids.splice(kids.indexOf(where.after) + 1, 0, child);
      else if (where.before) kids.splice(kids.indexOf(where.before), 0, child);
      else kids.push(child);
      return child;
    }
    const inline = this.inline(parent);
    const indent = this.childIndent(parent);
    child.indent = indent;
    const ws = (): XText[] => (inline ? [] : [this.ws(indent, parent)]);
    if (where.after) {
      kids.splice(kids.indexOf(where.after) + 1, 0, ...ws(), child);
    } else if (where.before) {
      kids.splice(kids.indexOf(where.before), 0, child, ...ws());
    } else {
      let last = -1;
      for (let i = kids.length - 1; i >= 0; i--) {
        if ((kids[i] as XNode).kind === ELEMENT) {
          last = i;
          break;
        }
      }
      if (last >= 0) kids.splice(last + 1, 0, ...ws(), child);
      else if (kids.every((k) => isBlankText(k, this.src))) {
        parent.children = [this.ws(indent, parent), child, this.ws(this.lineIndent(parent) ?? '', parent)];
      } else {
        const lastKid = kids[kids.length - 1] as XNode;
        if (isBlankText(lastKid, this.src)) kids.splice(kids.length - 1, 0, this.ws(indent, parent), child);
        else kids.push(this.ws(indent, parent), child, this.ws(this.lineIndent(parent) ?? '', parent));
      }
    }
    // The parent too: a child changed before it was inserted is already dirty, and touch stops there.
    touch(child);
    touch(parent);
    return child;
  }

  /**
   * Inserts `children` in their order, as many insert calls would, each right after the one
   * before: the first where `where` says, the others after it. One pass over the parent's
   * children however many are inserted (an insert call scans them once per child).
   */
  insertAll(
    parent: XElement,
    children: readonly XElement[],
    where: { after?: XElement; before?: XElement } = {},
  ): void {
    const first = children[0];
    if (first === undefined) return;
    this.insert(parent, first, where);
    if (children.length === 1) return;
    const rest = children.slice(1);
    const items: XNode[] = [];
    if (parent.fresh) {
      for (const child of rest) {
        child.parent = parent;
        items.push(child);
      }
    } else {
      // Read after the first insert, which may have given the parent its first element child;
      // the others all go after that one, so what these two read no longer changes.
      const inline = this.inline(parent);
      const indent = this.childIndent(parent);
      for (const child of rest) {
        child.parent = parent;
        child.indent = indent;
        if (!inline) items.push(this.ws(indent, parent));
        items.push(child);
      }
    }
    const kids = parent.children;
    spliceIn(kids, kids.indexOf(first) + 1, items);
    if (parent.fresh) return;
    for (const child of rest) touch(child);
    touch(parent);
  }

  /** insertAll with the first child placed by insertOrdered. */
  insertAllOrdered(parent: XElement, children: readonly XElement[], order: readonly string[]): void {
    const first = children[0];
    if (first === undefined) return;
    this.insertOrdered(parent, first, order);
    this.insertAll(parent, children.slice(1), { after: first });
  }

  /**
   * Inserts `child` at its place in the canonical child `order` of `parent`: after the nearest
   * earlier sibling of that order, else before the nearest later one, else last.
   */
  insertOrdered(parent: XElement, child: XElement, order: readonly string[]): XElement {
    const pos = order.indexOf(child.name);
    if (pos >= 0) {
      for (let i = pos; i >= 0; i--) {
        const same = childrenNamed(parent, order[i] as string);
        const last = same[same.length - 1];
        if (last) return this.insert(parent, child, { after: last });
      }
      for (let i = pos + 1; i < order.length; i++) {
        const next = childNamed(parent, order[i] as string);
        if (next) return this.insert(parent, child, { before: next });
      }
    }
    return this.insert(parent, child);
  }

  /** Removes a node and the blank text just before it. */
  remove(node: XElement): void {
    const parent = node.parent;
    if (!parent) return;
    const kids = parent.children;
    const i = kids.indexOf(node);
    if (i < 0) return;
    const from = i > 0 && isBlankText(kids[i - 1] as XNode, this.src) ? i - 1 : i;
    kids.splice(from, i - from + 1);
    touch(parent);
  }

  /**
   * Removes nodes as remove would, called on each in document order (a node and the blank text
   * left just before it), in one pass over each parent's children (remove scans them per node).
   */
  removeAll(nodes: Iterable<XElement>): void {
    const byParent = new Map<XElement, Set<XNode>>();
    for (const node of nodes) {
      const parent = node.parent;
      if (!parent) continue;
      let gone = byParent.get(parent);
      if (!gone) byParent.set(parent, (gone = new Set()));
      gone.add(node);
    }
    for (const [parent, gone] of byParent) {
      const kids = parent.children;
      let kept = 0;
      let removed = false;
      for (let i = 0; i < kids.length; i++) {
        const k = kids[i] as XNode;
        if (!gone.has(k)) kids[kept++] = k;
        else {
          // kids[0, kept) is what the earlier removals left: the blank before k is the last of it.
          if (kept > 0 && isBlankText(kids[kept - 1] as XNode, this.src)) kept--;
          removed = true;
        }
      }
      kids.length = kept;
      if (removed) touch(parent);
    }
  }

  /** The child `name` of `parent`, created empty at its place in `order` when missing. */
  ensure(parent: XElement, name: string, order: readonly string[] = []): XElement {
    return childNamed(parent, name) ?? this.insertOrdered(parent, this.el(name), order);
  }

  // -------------------------------------------------------------------------------------------
  // Values

  /** Replaces the content of an element with a text value (encoded, escaped once). */
  setText(el: XElement, value: string): void {
    el.children = value === '' ? [] : [this.textNode(value, el)];
    touch(el);
  }

  /** Display value of an element (as the readers show it). */
  current(el: XElement): string {
    return displayValue(xmlText(el));
  }

  /**
   * Sets the child `name` of `parent` to `value` unless it already shows that value (the stored
   * bytes then stay, artefacts included). Creates the child when missing, unless `value` is ''.
   */
  setValue(parent: XElement, name: string, value: string, order: readonly string[] = []): void {
    const el = childNamed(parent, name);
    if (el) {
      if (this.current(el) !== value) this.setText(el, value);
      return;
    }
    if (value === '') return;
    this.insertOrdered(parent, this.el(name, value), order);
  }

  /**
   * Like setValue for a value the views show trimmed (ids, times, zones): a stored value equal but
   * for surrounding blanks is left alone.
   */
  setTrimmed(parent: XElement, name: string, value: string, order: readonly string[] = []): void {
    const el = childNamed(parent, name);
    if (el && this.current(el).trim() === value.trim()) return;
    this.setValue(parent, name, value, order);
  }

  /**
   * Like setValue for a secret: the placeholder keeps the stored value. Any other value was typed
   * (a secret is never shown), so it is compared with the stored one as the connector reads it,
   * not as a display would undo its double escaping: « p&w » typed over a stored « p&amp;w » is
   * written, not taken for the same.
   */
  setSecret(
    parent: XElement,
    name: string,
    value: string,
    placeholder: string,
    order: readonly string[] = [],
  ): void {
    if (value === placeholder) return;
    const el = childNamed(parent, name);
    if (el && decodeConnectorText(xmlText(el)) === value) return;
    if (el) this.setText(el, value);
    else this.setValue(parent, name, value, order);
  }

  /** A switch stored '1'/'0'; left alone when the stored value already means the same. */
  setFlag(parent: XElement, name: string, value: boolean, order: readonly string[] = []): void {
    const el = childNamed(parent, name);
    if (el) {
      if (isTrue(this.current(el)) !== value) this.setText(el, value ? '1' : '0');
      return;
    }
    this.insertOrdered(parent, this.el(name, value ? '1' : '0'), order);
  }

  /** An integer; left alone when the stored value is the same number. */
  setInt(parent: XElement, name: string, value: number, order: readonly string[] = []): void {
    const el = childNamed(parent, name);
    if (el) {
      const t = this.current(el).trim();
      if (!(/^[+-]?\d+$/.test(t) && Number(t) === value)) this.setText(el, String(value));
      return;
    }
    this.insertOrdered(parent, this.el(name, String(value)), order);
  }
}

/** Inserts `items` into `kids` at `at`, in place, in one pass (no spread: lists may be long). */
function spliceIn(kids: XNode[], at: number, items: readonly XNode[]): void {
  const tail = kids.slice(at);
  kids.length = at;
  for (const item of items) kids.push(item);
  for (const item of tail) kids.push(item);
}

/** Blank text node (spaces, tabs, line ends only). */
export function isBlankText(node: XNode, src: SourceText): boolean {
  if (node.kind !== TEXT) return false;
  const s = node.markup ?? src.text.slice(node.start, node.end);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return false;
  }
  return true;
}

/** The text with an empty `<name></name>` inserted at its place in the legacy order of the root's children. */
export function insertEmptySection(doc: ConfigDocument, name: string): string {
  const t = doc.text;
  const { layout } = doc;
  const nl = layout.newline;
  const indent = rootChildIndent(doc);
  const element = `<${name}></${name}>`;
  const pos = (SECTION_ORDER as readonly string[]).indexOf(name);
  const sections = layout.sections;
  if (pos >= 0) {
    for (let i = pos - 1; i >= 0; i--) {
      const prev = [...sections].reverse().find((s) => s.name === SECTION_ORDER[i]);
      if (prev) return t.slice(0, prev.end) + nl + indent + element + t.slice(prev.end);
    }
    for (let i = pos + 1; i < SECTION_ORDER.length; i++) {
      const next = sections.find((s) => s.name === SECTION_ORDER[i]);
      if (next) return t.slice(0, next.start) + element + nl + indent + t.slice(next.start);
    }
  }
  const last = sections[sections.length - 1];
  if (last) return t.slice(0, last.end) + nl + indent + element + t.slice(last.end);
  if (layout.rootSelfClosing) {
    const open = t.slice(layout.rootStart, layout.rootEnd).replace(/\s*\/>$/, '>');
    return (
      t.slice(0, layout.rootStart) +
      open +
      nl +
      indent +
      element +
      nl +
      '</Connexion>' +
      t.slice(layout.rootEnd)
    );
  }
  const inner = t.slice(layout.rootOpenEnd, layout.rootCloseStart);
  if (inner.trim() === '') {
    return t.slice(0, layout.rootOpenEnd) + nl + indent + element + nl + t.slice(layout.rootCloseStart);
  }
  return t.slice(0, layout.rootCloseStart) + element + t.slice(layout.rootCloseStart);
}

function rootChildIndent(doc: ConfigDocument): string {
  const first = doc.layout.sections[0];
  if (first) {
    const t = doc.text;
    let i = first.start;
    while (i > 0 && (t.charCodeAt(i - 1) === 32 || t.charCodeAt(i - 1) === 9)) i--;
    if (i === 0 || t.charCodeAt(i - 1) === 10 || t.charCodeAt(i - 1) === 13) return t.slice(i, first.start);
    return '';
  }
  return doc.src.indentUnit;
}
