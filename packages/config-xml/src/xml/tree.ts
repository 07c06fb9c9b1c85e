import { normaliseLineEnds, unescapeXml } from './escape.ts';
import { isNameCode } from './names.ts';

/**
 * The lossless tree of one range of a validated document.
 *
 * Nodes parsed from the source keep their offsets in the document text: an unchanged node is
 * written back as its exact source slice, whatever its style (`<Tag/>` or `<Tag />`, `&#13;`,
 * comments, attributes, indentation). Changed nodes are marked dirty up to the section, and only
 * they are rebuilt; new nodes ("fresh", offset -1) are formatted with the document's line end and
 * indentation when written.
 *
 * Elements below a chosen depth are parsed lazily: their children are read from the source the
 * first time they are asked for, so an edit pays only for the part of a section it touches.
 */

export const ELEMENT = 1;
export const TEXT = 2;
export const CDATA = 3;
export const COMMENT = 4;
export const PI = 5;

export type XNode = XElement | XText | XOther;

export class XText {
  readonly kind = TEXT;
  /** Source range, or -1 for a fresh node. */
  start: number;
  end: number;
  /** Markup of a fresh node (already escaped); null for a source node. */
  markup: string | null;
  parent: XElement | null = null;
  constructor(start: number, end: number, markup: string | null) {
    this.start = start;
    this.end = end;
    this.markup = markup;
  }
}

/** CDATA sections, comments and processing instructions: kept as they are. */
export class XOther {
  readonly kind: typeof CDATA | typeof COMMENT | typeof PI;
  start: number;
  end: number;
  parent: XElement | null = null;
  constructor(kind: typeof CDATA | typeof COMMENT | typeof PI, start: number, end: number) {
    this.kind = kind;
    this.start = start;
    this.end = end;
  }
}

export class XElement {
  readonly kind = ELEMENT;
  readonly name: string;
  /** Source offsets; all -1 for a fresh element. */
  start: number;
  /** Offset after the `>` of the start tag. */
  openEnd: number;
  /** Offset of the `</` of the end tag; equals `end` for a self-closing tag. */
  closeStart: number;
  end: number;
  /** As written in the source (fresh: true while it has no children). */
  readonly sourceSelfClosing: boolean;
  /** Modified (or has a modified descendant): rebuilt when written. */
  dirty = false;
  parent: XElement | null = null;
  /** Indentation of a fresh element, set when it is inserted. */
  indent: string | null = null;
  readonly src: SourceText;
  private kids: XNode[] | null;

  constructor(
    src: SourceText,
    name: string,
    start: number,
    openEnd: number,
    closeStart: number,
    end: number,
    selfClosing: boolean,
    kids: XNode[] | null,
  ) {
    this.src = src;
    this.name = name;
    this.start = start;
    this.openEnd = openEnd;
    this.closeStart = closeStart;
    this.end = end;
    this.sourceSelfClosing = selfClosing;
    this.kids = kids;
  }

  get fresh(): boolean {
    return this.start < 0;
  }

  /** All child nodes (parsed on first access for a lazy element). */
  get children(): XNode[] {
    if (this.kids === null) {
      this.kids = this.sourceSelfClosing
        ? []
        : parseChildren(this.src, this.openEnd, this.closeStart, this, Infinity);
    }
    return this.kids;
  }

  set children(nodes: XNode[]) {
    this.kids = nodes;
  }

  /** Parses children down to `depth` levels only (deeper elements stay lazy). */
  expand(depth: number): this {
    if (this.kids === null && !this.sourceSelfClosing) {
      this.kids = parseChildren(this.src, this.openEnd, this.closeStart, this, depth);
    }
    return this;
  }

  /** Raw attributes of the start tag (e.g. ` a="1"`), without the trailing blanks. */
  attributesRaw(): string {
    if (this.start < 0) return '';
    const from = this.start + 1 + this.name.length;
    const to = this.sourceSelfClosing ? this.end - 2 : this.openEnd - 1;
    return this.src.text.slice(from, to).trimEnd();
  }
}

/** The document text the nodes point into, with the formatting conventions of the document. */
export class SourceText {
  readonly text: string;
  readonly newline: string;
  /** One level of indentation (two spaces in real documents). */
  readonly indentUnit: string;
  /** How an empty element is written: `/>` or ` />`. */
  readonly selfClose: string;
  constructor(text: string, newline: string, indentUnit: string, selfClose: string) {
    this.text = text;
    this.newline = newline;
    this.indentUnit = indentUnit;
    this.selfClose = selfClose;
  }
}

interface Frame {
  el: XElement | null;
  /** Children of `el` are being collected (el is eager). */
  collect: XNode[] | null;
}

/**
 * Parses [from, to) of a validated document into nodes, children of `parent`. The elements of the
 * range are always created; `depth` more levels below them are parsed eagerly, the elements at the
 * next level are created lazy and anything deeper is only skipped over (0: direct children only,
 * each of them lazy; Infinity: everything).
 */
export function parseChildren(
  src: SourceText,
  from: number,
  to: number,
  parent: XElement | null,
  depth: number,
): XNode[] {
  const t = src.text;
  const top: XNode[] = [];
  const stack: Frame[] = [{ el: parent, collect: top }];
  let p = from;
  while (p < to) {
    const frame = stack[stack.length - 1] as Frame;
    const c = t.charCodeAt(p);
    if (c !== 60) {
      let q = t.indexOf('<', p);
      if (q === -1 || q > to) q = to;
      if (frame.collect !== null) {
        const node = new XText(p, q, null);
        node.parent = frame.el;
        frame.collect.push(node);
      }
      p = q;
      continue;
    }
    const c2 = t.charCodeAt(p + 1);
    if (c2 === 47) {
      // end tag
      const gt = t.indexOf('>', p + 2);
      stack.pop();
      if (frame.el !== null && frame.el !== parent) {
        frame.el.closeStart = p;
        frame.el.end = gt + 1;
      }
      p = gt + 1;
      continue;
    }
    if (c2 === 33 || c2 === 63) {
      let kind: typeof CDATA | typeof COMMENT | typeof PI;
      let e: number;
      if (c2 === 63) {
        kind = PI;
        e = t.indexOf('?>', p + 2) + 2;
      } else if (t.charCodeAt(p + 2) === 45) {
        kind = COMMENT;
        e = t.indexOf('-->', p + 4) + 3;
      } else {
        kind = CDATA;
        e = t.indexOf(']]>', p + 9) + 3;
      }
      if (frame.collect !== null) {
        const node = new XOther(kind, p, e);
        node.parent = frame.el;
        frame.collect.push(node);
      }
      p = e;
      continue;
    }
    // start tag
    let i = p + 1;
    while (isNameCode(t.charCodeAt(i))) i++;
    const nameEnd = i;
    for (;;) {
      const d = t.charCodeAt(i);
      if (d === 62) break;
      if (d === 34 || d === 39) i = t.indexOf(d === 34 ? '"' : "'", i + 1);
      i++;
    }
    const tagEnd = i + 1;
    const selfClosing = t.charCodeAt(i - 1) === 47;
    const level = stack.length; // 1 = child of the parsed range
    if (frame.collect !== null) {
      const eager = level <= depth;
      const el = new XElement(
        src,
        t.slice(p + 1, nameEnd),
        p,
        tagEnd,
        selfClosing ? tagEnd : -1,
        selfClosing ? tagEnd : -1,
        selfClosing,
        selfClosing ? [] : eager ? [] : null,
      );
      el.parent = frame.el;
      frame.collect.push(el);
      if (!selfClosing) stack.push({ el, collect: eager ? el.children : null });
    } else if (!selfClosing) {
      stack.push({ el: null, collect: null });
    }
    p = tagEnd;
  }
  return top;
}

// ---------------------------------------------------------------------------------------------
// Reading helpers

export function childNamed(el: XElement | null | undefined, name: string): XElement | null {
  if (!el) return null;
  for (const k of el.children) if (k.kind === ELEMENT && k.name === name) return k;
  return null;
}

export function childrenNamed(el: XElement | null | undefined, name: string): XElement[] {
  const out: XElement[] = [];
  if (!el) return out;
  for (const k of el.children) if (k.kind === ELEMENT && k.name === name) out.push(k);
  return out;
}

/** First element at a `/`-separated path below `el`. */
export function pathNamed(el: XElement | null, path: string): XElement | null {
  let cur = el;
  for (const part of path.split('/')) {
    if (!cur) return null;
    cur = childNamed(cur, part);
  }
  return cur;
}

/** XML text content of an element (text and CDATA children; nested elements ignored). */
export function xmlText(el: XElement): string {
  if (el.sourceSelfClosing && el.start >= 0 && !el.dirty) return '';
  const kids = el.children;
  if (kids.length === 1) {
    const k = kids[0] as XNode;
    if (k.kind === TEXT)
      return k.markup === null ? unescapeXml(el.src.text.slice(k.start, k.end)) : unescapeXml(k.markup);
  }
  let out = '';
  for (const k of kids) {
    if (k.kind === TEXT) {
      out += unescapeXml(k.markup === null ? el.src.text.slice(k.start, k.end) : k.markup);
    } else if (k.kind === CDATA) {
      out += normaliseLineEnds(el.src.text.slice(k.start + 9, k.end - 3));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Writing

/** Marks a node and all its ancestors as changed. */
export function touch(node: XNode): void {
  let el: XElement | null = node.kind === ELEMENT ? node : node.parent;
  while (el !== null && !el.dirty) {
    el.dirty = true;
    el = el.parent;
  }
}

/** Writes a node: its source slice when unchanged, else rebuilt from its children. */
export function serialize(node: XNode, src: SourceText, force = false): string {
  const parts: string[] = [];
  write(node, src, parts, force, null);
  return parts.join('');
}

function write(
  node: XNode,
  src: SourceText,
  out: string[],
  force: boolean,
  freshIndent: string | null,
): void {
  const t = src.text;
  if (node.kind !== ELEMENT) {
    if (node.kind === TEXT && node.markup !== null) out.push(node.markup);
    else out.push(t.slice(node.start, node.end));
    return;
  }
  const el = node;
  if (el.start >= 0 && !el.dirty && !force) {
    out.push(t.slice(el.start, el.end));
    return;
  }
  if (el.start < 0) {
    writeFresh(el, src, out, freshIndent ?? el.indent ?? '');
    return;
  }
  const kids = el.children;
  if (kids.length === 0) {
    if (el.sourceSelfClosing) out.push(t.slice(el.start, el.end));
    else if (force || !el.dirty) out.push(t.slice(el.start, el.end));
    else out.push('<' + el.name + el.attributesRaw() + src.selfClose);
    return;
  }
  if (el.sourceSelfClosing) out.push('<' + el.name + el.attributesRaw() + '>');
  else out.push(t.slice(el.start, el.openEnd));
  for (const k of kids) write(k, src, out, force, null);
  if (el.sourceSelfClosing) out.push('</' + el.name + '>');
  else out.push(t.slice(el.closeStart, el.end));
}

/** A fresh element, pretty-printed at `indent` with the document's conventions. */
function writeFresh(el: XElement, src: SourceText, out: string[], indent: string): void {
  const kids = el.children;
  if (kids.length === 0) {
    out.push('<' + el.name + src.selfClose);
    return;
  }
  let hasElement = false;
  for (const k of kids) if (k.kind === ELEMENT) hasElement = true;
  out.push('<' + el.name + '>');
  if (!hasElement) {
    for (const k of kids) write(k, src, out, false, null);
  } else {
    const inner = indent + src.indentUnit;
    for (const k of kids) {
      if (k.kind === TEXT && k.markup !== null && k.markup.trim() === '') continue;
      out.push(src.newline + inner);
      write(k, src, out, false, inner);
    }
    out.push(src.newline + indent);
  }
  out.push('</' + el.name + '>');
}
