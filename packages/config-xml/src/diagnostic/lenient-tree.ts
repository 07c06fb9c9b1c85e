import { MAX_DEPTH } from '../xml/scan.ts';
import { CDATA, END, segmentTable, SELF_CLOSING, sharedPass, START, TEXT } from './segments.ts';

/** What the lenient walk knows of one element path (root excluded, '/'-joined, e.g. 'Info/Serial'). */
export interface TLenientPath {
  count: number;
  /** Raw text (entities not expanded) of the first occurrence, for the wanted paths. */
  raw?: string;
  /** The first occurrence holds child elements (or was left open before the next element). */
  hasChildren?: boolean;
  /** The first occurrence never got its end tag. */
  unclosed?: boolean;
}

export interface TTopLevelSection {
  name: string;
  /** Offset of its start tag. */
  start: number;
  /** Offset after its end tag (or after the self-closing tag); -1 when never closed. */
  end: number;
}

export interface TLenientTree {
  root: {
    name: string;
    start: number;
    startTagEnd: number;
    selfClosing: boolean;
    endTagStart: number;
  } | null;
  sections: TTopLevelSection[];
  paths: Map<string, TLenientPath>;
  /**
   * Every end tag closed the innermost open element, none was stray, nothing was left open and
   * no element came after the root. False is a sure sign that the text is not well-formed (the
   * diagnostic then asks saxes first, see strictScan); true proves nothing.
   */
  balanced: boolean;
}

/** One element path seen by the walk: a trie over names, so a child's path costs one lookup. */
interface TPathNode {
  /** Its element name (the last part of the path). */
  name: string;
  path: string;
  stats: TLenientPath | null;
  wanted: boolean;
  /** Its children while they are few (looked up by comparing names in place), then a map. */
  kidList: TPathNode[] | null;
  kids: Map<string, TPathNode>;
  /** The child found last: siblings mostly repeat one name or follow one order. */
  lastKid: TPathNode | null;
}

/** Children compared in place up to this many names; a map past it keeps every lookup O(1). */
const FEW_KIDS = 8;

interface TOpen {
  name: string;
  node: TPathNode;
  stats: TLenientPath | null;
  collect: boolean;
  section: TTopLevelSection | null;
}

/**
 * Walk any text as if it were XML, tolerating faults: an end tag closes the nearest open element
 * of that name (elements left open inside it count as unclosed), stray end tags are ignored.
 * Gives the root, the top-level sections with their offsets and per-path counts and raw texts.
 * Nesting is tracked down to MAX_DEPTH, which keeps the walk linear on any input.
 */
export function walkLenient(text: string, wanted: ReadonlySet<string> = NOTHING): TLenientTree {
  // Shared inside withSegmentTable (by text, then by set of wanted paths).
  const walks = sharedPass(text, 'lenient', () => new Map<ReadonlySet<string>, TLenientTree>());
  let tree = walks.get(wanted);
  if (tree === undefined) {
    tree = walk(text, wanted);
    walks.set(wanted, tree);
  }
  return tree;
}

const NOTHING: ReadonlySet<string> = new Set();

function walk(text: string, wanted: ReadonlySet<string>): TLenientTree {
  const tree: TLenientTree = { root: null, sections: [], paths: new Map(), balanced: true };
  const stack: TOpen[] = [];
  const rootNode = pathNode('', '', null, false);
  /**
   * The node of the child of `parent` named text[from, to) (created with its stats on first
   * sight). The name is compared in place with the child found last, then with the few children
   * seen: no string is cut from the text, and none hashed, for a name already seen there.
   */
  const childNode = (parent: TPathNode, from: number, to: number): TPathNode => {
    const length = to - from;
    const last = parent.lastKid;
    if (last !== null && namedAt(text, from, length, last.name)) return last;
    let node: TPathNode | undefined;
    let name: string | null = null;
    if (parent.kidList !== null) {
      for (const kid of parent.kidList) if (namedAt(text, from, length, kid.name)) node = kid;
    } else {
      name = text.slice(from, to);
      node = parent.kids.get(name);
    }
    if (node === undefined) {
      name ??= text.slice(from, to);
      const path = parent.path !== '' ? `${parent.path}/${name}` : name;
      let stats = tree.paths.get(path);
      if (stats === undefined) {
        stats = { count: 0 };
        tree.paths.set(path, stats);
      }
      node = pathNode(name, path, stats, wanted.has(path));
      parent.kids.set(name, node);
      if (parent.kidList !== null) {
        parent.kidList.push(node);
        if (parent.kidList.length > FEW_KIDS) parent.kidList = null;
      }
    }
    parent.lastKid = node;
    return node;
  };
  let rootClosed = false;
  /** Open elements whose text is being collected. */
  let collecting = 0;
  const table = segmentTable(text);
  for (let k = 0; k < table.count; k++) {
    const kind = table.kinds[k] as number;
    const start = table.starts[k] as number;
    const end = table.ends[k] as number;
    const top = stack[stack.length - 1];
    if (kind === TEXT || kind === CDATA) {
      if (top?.collect && top.stats) top.stats.raw += text.slice(start, end);
      continue;
    }
    const nameEnd = table.nameEnds[k] as number;
    if (kind === START && nameEnd > start + 1) {
      const selfClosing = ((table.flags[k] as number) & SELF_CLOSING) !== 0;
      if (stack.length === 0) {
        if (tree.root !== null || rootClosed) {
          tree.balanced = false;
          continue;
        }
        const name = text.slice(start + 1, nameEnd);
        tree.root = { name, start, startTagEnd: end, selfClosing, endTagStart: -1 };
        if (!selfClosing) stack.push({ name, node: rootNode, stats: null, collect: false, section: null });
        else rootClosed = true;
        continue;
      }
      // Deeper elements are ignored: no real document is that deep, and tracking them would make
      // hostile input (thousands of nested or stray tags) cost O(depth) per tag.
      if (stack.length >= MAX_DEPTH) {
        tree.balanced = false;
        continue;
      }
      if (collecting > 0)
        for (const open of stack) if (open.collect && open.stats) open.stats.hasChildren = true;
      const node = childNode(top ? top.node : rootNode, start + 1, nameEnd);
      const name = node.name;
      const stats = node.stats as TLenientPath;
      stats.count += 1;
      const collect = stats.count === 1 && node.wanted;
      if (collect) stats.raw = '';
      let section: TTopLevelSection | null = null;
      if (stack.length === 1) {
        section = { name, start, end: selfClosing ? end : -1 };
        tree.sections.push(section);
      }
      if (!selfClosing) {
        stack.push({ name, node, stats, collect, section });
        if (collect) collecting += 1;
      }
      continue;
    }
    if (kind === END) {
      // The end tag's name is compared in place with the open names (no string per end tag).
      const length = nameEnd - start - 2;
      let at = stack.length - 1;
      while (at >= 0 && !namedAt(text, start + 2, length, (stack[at] as TOpen).name)) at -= 1;
      if (at < 0 || at !== stack.length - 1) tree.balanced = false;
      if (at < 0) continue;
      while (stack.length > at + 1) {
        const left = stack.pop();
        if (left?.collect && left.stats) left.stats.unclosed = true;
        if (left?.collect) collecting -= 1;
      }
      const closed = stack.pop();
      if (closed?.collect) collecting -= 1;
      if (closed?.section) closed.section.end = end;
      if (stack.length === 0 && tree.root) {
        tree.root.endTagStart = start;
        rootClosed = true;
      }
    }
  }
  for (const left of stack) if (left.collect && left.stats) left.stats.unclosed = true;
  if (stack.length > 0) tree.balanced = false;
  return tree;
}

function pathNode(name: string, path: string, stats: TLenientPath | null, wanted: boolean): TPathNode {
  return { name, path, stats, wanted, kidList: [], kids: new Map(), lastKid: null };
}

/** Whether text[from, from + length) is `name`. */
function namedAt(text: string, from: number, length: number, name: string): boolean {
  if (name.length !== length) return false;
  for (let i = 0; i < length; i++) if (text.charCodeAt(from + i) !== name.charCodeAt(i)) return false;
  return true;
}

/** Expand the five predefined entities and character references of a raw text. */
export function unescapeXml(raw: string): string {
  return raw.replace(
    /&(amp|lt|gt|quot|apos);|&#x([0-9a-fA-F]{1,6});|&#([0-9]{1,7});/g,
    (match, name, hex, dec) => {
      if (name !== undefined)
        return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as const)[name as 'amp'];
      const code = hex !== undefined ? parseInt(hex as string, 16) : parseInt(dec as string, 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : match;
    },
  );
}
