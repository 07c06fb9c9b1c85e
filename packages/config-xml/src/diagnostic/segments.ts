/**
 * A lenient lexer over the document text: it cuts it into markup and text segments without
 * judging well-formedness, so that diagnostic and repair can look at malformed documents.
 * Unterminated constructs run to the end of the text; a tag stops before the next '<'.
 */

export type TSegmentKind = 'text' | 'start' | 'end' | 'comment' | 'cdata' | 'pi' | 'doctype';

export interface TSegment {
  kind: TSegmentKind;
  /** Offset of the first character. */
  start: number;
  /** Offset after the last character. */
  end: number;
  /** Element name for 'start' and 'end' segments, '' otherwise. */
  name: string;
  /** True for a self-closing start tag (`<Tag/>`, `<Tag />`). */
  selfClosing: boolean;
  /** True when the construct is not terminated (no '>', '-->', ']]>' or '?>'). */
  unterminated: boolean;
}

/**
 * A character of a lenient name: anything but white space (JavaScript's `\s`) and `/>=<"'!?`.
 * A loop over character codes (a sticky regular expression per character cost a quarter of the
 * diagnostic).
 */
function isLenientNameCode(c: number): boolean {
  if (c < 0x80) {
    return !(
      c === 32 ||
      (c >= 9 && c <= 13) ||
      c === 47 ||
      c === 62 ||
      c === 61 ||
      c === 60 ||
      c === 34 ||
      c === 39 ||
      c === 33 ||
      c === 63
    );
  }
  return !(
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function isNameStart(code: number): boolean {
  return (
    (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 58 || code >= 0xc0
  );
}

/** 1 for the ASCII characters of a lenient name: one load per character. */
const ASCII_LENIENT_NAME = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_LENIENT_NAME[c] = isLenientNameCode(c) ? 1 : 0;

/** End of a lenient name starting at `from`. */
function nameEndAt(text: string, from: number): number {
  let end = from;
  const length = text.length;
  while (end < length) {
    const c = text.charCodeAt(end);
    if (c < 0x80 ? ASCII_LENIENT_NAME[c] !== 1 : !isLenientNameCode(c)) break;
    end += 1;
  }
  return end;
}

/** Set by the functions below, beside the end they return (no tuple allocated per segment). */
let lastUnterminated = false;

function delimited(text: string, from: number, close: string): number {
  const at = text.indexOf(close, from);
  lastUnterminated = at === -1;
  return at === -1 ? text.length : at + close.length;
}

/** End of a tag: the first '>' outside quotes, or just before the next '<'. */
function tagEnd(text: string, from: number): number {
  let quote = 0;
  lastUnterminated = true;
  const length = text.length;
  for (let i = from; i < length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 60) return i;
    if (quote !== 0) {
      if (code === quote) quote = 0;
    } else if (code === 34 || code === 39) quote = code;
    else if (code === 62) {
      lastUnterminated = false;
      return i + 1;
    }
  }
  return length;
}

function doctypeEnd(text: string, from: number): number {
  let depth = 0;
  lastUnterminated = true;
  for (let i = from; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 91) depth += 1;
    else if (code === 93) depth = Math.max(0, depth - 1);
    else if (code === 62 && depth === 0) {
      lastUnterminated = false;
      return i + 1;
    }
  }
  return text.length;
}

/** Does a '<' at this offset open markup (rather than being a stray character of text)? */
function opensMarkup(text: string, at: number): boolean {
  const next = text.charCodeAt(at + 1);
  if (next === 33 || next === 63) return true; // '!' or '?'
  if (next === 47) return isNameStart(text.charCodeAt(at + 2)) || text.charCodeAt(at + 2) === 62;
  return isNameStart(next);
}

/** Codes of the segment kinds (the index in KIND_CODES). */
export const TEXT = 0;
export const START = 1;
export const END = 2;
const COMMENT = 3;
export const CDATA = 4;
const PI = 5;
const DOCTYPE = 6;

/**
 * The segment the last call of lexAt found: its kind code, end, name end (start and end tags)
 * and flags. Fields of one module object, read right after the call: no object per segment.
 */
const lexed = { kind: TEXT, end: 0, nameEnd: 0, selfClosing: false, unterminated: false };

/**
 * The lexer: cuts the segment starting at `pos` (< text.length) into `lexed`. Text runs to the
 * next '<' that opens markup; markup is recognised by its opening characters.
 */
function lexAt(text: string, pos: number): void {
  let lt = text.indexOf('<', pos);
  while (lt !== -1 && !opensMarkup(text, lt)) lt = text.indexOf('<', lt + 1);
  lexed.selfClosing = false;
  lexed.nameEnd = pos;
  if (lt !== pos) {
    lexed.kind = TEXT;
    lexed.end = lt === -1 ? text.length : lt;
    lexed.unterminated = false;
    return;
  }
  if (text.startsWith('<!--', lt)) {
    lexed.kind = COMMENT;
    lexed.end = delimited(text, lt + 4, '-->');
  } else if (text.startsWith('<![CDATA[', lt)) {
    lexed.kind = CDATA;
    lexed.end = delimited(text, lt + 9, ']]>');
  } else if (text.charCodeAt(lt + 1) === 63) {
    lexed.kind = PI;
    lexed.end = delimited(text, lt + 2, '?>');
  } else if (text.charCodeAt(lt + 1) === 33) {
    lexed.kind = DOCTYPE;
    lexed.end = doctypeEnd(text, lt + 2);
  } else if (text.charCodeAt(lt + 1) === 47) {
    // A lenient name holds no quote, '<' or '>': the tag's end is looked for after it.
    lexed.kind = END;
    lexed.nameEnd = nameEndAt(text, lt + 2);
    lexed.end = tagEnd(text, lexed.nameEnd);
  } else {
    lexed.kind = START;
    lexed.nameEnd = nameEndAt(text, lt + 1);
    lexed.end = tagEnd(text, lexed.nameEnd);
    lexed.selfClosing = !lastUnterminated && text.charCodeAt(lexed.end - 2) === 47;
  }
  lexed.unterminated = lastUnterminated;
}

/** Offset where the name of a start or end tag segment begins. */
export function nameStart(kind: TSegmentKind, start: number): number {
  return kind === 'end' ? start + 2 : start + 1;
}

export function* segments(text: string): Generator<TSegment> {
  const length = text.length;
  for (let pos = 0; pos < length; pos = lexed.end) {
    lexAt(text, pos);
    const kind = KIND_CODES[lexed.kind] as TSegmentKind;
    const name = kind === 'start' || kind === 'end' ? text.slice(nameStart(kind, pos), lexed.nameEnd) : '';
    yield {
      kind,
      start: pos,
      end: lexed.end,
      name,
      selfClosing: lexed.selfClosing,
      unterminated: lexed.unterminated,
    };
  }
}

const KIND_CODES: readonly TSegmentKind[] = ['text', 'start', 'end', 'comment', 'cdata', 'pi', 'doctype'];

/** The segments of a text as flat arrays (offsets and kinds): walked by index, no object each. */
export interface TSegmentTable {
  count: number;
  starts: Int32Array;
  ends: Int32Array;
  /** Index in KIND_CODES of each segment's kind. */
  kinds: Uint8Array;
  /** End of the name of start and end tags (the segment's start otherwise). */
  nameEnds: Int32Array;
  /** Bit 1: self-closing start tag; bit 2: unterminated. */
  flags: Uint8Array;
}

export const SELF_CLOSING = 1;
export const UNTERMINATED = 2;

/** Kind of segment `k` of a table. */
export function kindAt(table: TSegmentTable, k: number): TSegmentKind {
  return KIND_CODES[table.kinds[k] as number] as TSegmentKind;
}

/** What the passes of one diagnostic or repair share (withSegmentTable), for the last text seen. */
interface TScope {
  text: string | null;
  table: TSegmentTable | null;
  /** Results of whole-text passes on `text` (the strict scan, the lenient walk), by name. */
  results: Map<string, unknown>;
}

let scope: TScope | null = null;

/**
 * Runs `task` with the segment table of `text` shared: the diagnostic and the repair look for
 * several patterns in the data of the same text, and each used to walk the lexer again. Inside the
 * task the table (and the passes of sharedPass) of the last text asked for are kept; they are
 * dropped when the task ends (no text is kept alive between calls).
 */
export function withSegmentTable<T>(task: () => T): T {
  // Nested (the repair's check of its result is a diagnostic): the outer scope is shared.
  if (scope !== null) return task();
  scope = { text: null, table: null, results: new Map() };
  try {
    return task();
  } finally {
    scope = null;
  }
}

function scopeFor(text: string): TScope | null {
  if (scope !== null && scope.text !== text) {
    scope.text = text;
    scope.table = null;
    scope.results.clear();
  }
  return scope;
}

/** The segment table of a text: the shared one inside withSegmentTable, else built by one walk. */
export function segmentTable(text: string): TSegmentTable {
  const shared = scopeFor(text);
  if (shared === null) return buildTable(text);
  shared.table ??= buildTable(text);
  return shared.table;
}

/**
 * Shares, for `text`, the segment table of `before` moved by `edits` (sorted, none overlapping),
 * when `before`'s table is the shared one. Only for edits that leave every segment boundary where
 * it was (see replaceInData's keepsSegments): each offset moves by the length change of the edits
 * that end at or before it.
 */
export function shareShiftedTable(
  before: string,
  text: string,
  edits: readonly { at: number; removed: number; added: number }[],
): void {
  if (scope === null || scope.text !== before || scope.table === null) return;
  const old = scope.table;
  const shift = (a: Int32Array): Int32Array => {
    const out = new Int32Array(a.length);
    let e = 0;
    let delta = 0;
    // Offsets of one array are visited in increasing order within each segment; segments follow
    // each other, so starts, name ends and ends each only move forward.
    for (let k = 0; k < old.count; k++) {
      const x = a[k] as number;
      while (
        e < edits.length &&
        (edits[e] as { at: number }).at + (edits[e] as { removed: number }).removed <= x
      ) {
        const edit = edits[e] as { removed: number; added: number };
        delta += edit.added - edit.removed;
        e += 1;
      }
      out[k] = x + delta;
    }
    return out;
  };
  const table: TSegmentTable = {
    count: old.count,
    starts: shift(old.starts),
    ends: shift(old.ends),
    kinds: old.kinds,
    nameEnds: shift(old.nameEnds),
    flags: old.flags,
  };
  scopeFor(text);
  scope.table = table;
}

/**
 * The result of a pass over the whole text (a pure function of it), computed once per text inside
 * withSegmentTable: the repair's strict scan and lenient walk are the diagnostic's of its result.
 */
export function sharedPass<T>(text: string, name: string, pass: () => T): T {
  const shared = scopeFor(text);
  if (shared === null) return pass();
  if (!shared.results.has(name)) shared.results.set(name, pass());
  return shared.results.get(name) as T;
}

function buildTable(text: string): TSegmentTable {
  let capacity = 1024;
  let starts = new Int32Array(capacity);
  let ends = new Int32Array(capacity);
  let kinds = new Uint8Array(capacity);
  let nameEnds = new Int32Array(capacity);
  let flags = new Uint8Array(capacity);
  let count = 0;
  const length = text.length;
  for (let pos = 0; pos < length; pos = lexed.end) {
    lexAt(text, pos);
    if (count === capacity) {
      capacity *= 2;
      const grow = <T extends Int32Array | Uint8Array>(a: T, b: T): T => (b.set(a), b);
      starts = grow(starts, new Int32Array(capacity));
      ends = grow(ends, new Int32Array(capacity));
      kinds = grow(kinds, new Uint8Array(capacity));
      nameEnds = grow(nameEnds, new Int32Array(capacity));
      flags = grow(flags, new Uint8Array(capacity));
    }
    starts[count] = pos;
    ends[count] = lexed.end;
    kinds[count] = lexed.kind;
    nameEnds[count] = lexed.nameEnd;
    flags[count] = (lexed.selfClosing ? SELF_CLOSING : 0) | (lexed.unterminated ? UNTERMINATED : 0);
    count += 1;
  }
  return { count, starts, ends, kinds, nameEnds, flags };
}
