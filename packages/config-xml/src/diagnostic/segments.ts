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

function readName(text: string, from: number): string {
  let end = from;
  const length = text.length;
  while (end < length && isLenientNameCode(text.charCodeAt(end))) end += 1;
  return text.slice(from, end);
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

export function* segments(text: string): Generator<TSegment> {
  let pos = 0;
  const length = text.length;
  while (pos < length) {
    let lt = text.indexOf('<', pos);
    while (lt !== -1 && !opensMarkup(text, lt)) lt = text.indexOf('<', lt + 1);
    const textEnd = lt === -1 ? length : lt;
    if (textEnd > pos) {
      yield { kind: 'text', start: pos, end: textEnd, name: '', selfClosing: false, unterminated: false };
    }
    if (lt === -1) return;
    let kind: TSegmentKind;
    let end: number;
    let name = '';
    let selfClosing = false;
    if (text.startsWith('<!--', lt)) {
      kind = 'comment';
      end = delimited(text, lt + 4, '-->');
    } else if (text.startsWith('<![CDATA[', lt)) {
      kind = 'cdata';
      end = delimited(text, lt + 9, ']]>');
    } else if (text.charCodeAt(lt + 1) === 63) {
      kind = 'pi';
      end = delimited(text, lt + 2, '?>');
    } else if (text.charCodeAt(lt + 1) === 33) {
      kind = 'doctype';
      end = doctypeEnd(text, lt + 2);
    } else if (text.charCodeAt(lt + 1) === 47) {
      kind = 'end';
      name = readName(text, lt + 2);
      end = tagEnd(text, lt + 2);
    } else {
      kind = 'start';
      name = readName(text, lt + 1);
      end = tagEnd(text, lt + 1);
      selfClosing = !lastUnterminated && text.charCodeAt(end - 2) === 47;
    }
    yield { kind, start: lt, end, name, selfClosing, unterminated: lastUnterminated };
    pos = end;
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
}

/** Kind of segment `k` of a table. */
export function kindAt(table: TSegmentTable, k: number): TSegmentKind {
  return KIND_CODES[table.kinds[k] as number] as TSegmentKind;
}

/** The table shared by the passes of one diagnostic or repair (withSegmentTable). */
let scope: { text: string | null; table: TSegmentTable | null } | null = null;

/**
 * Runs `task` with the segment table of `text` shared: the diagnostic and the repair look for
 * several patterns in the data of the same text, and each used to walk the lexer again. Inside the
 * task the table of the last text asked for is kept; it is dropped when the task ends (no text is
 * kept alive between calls).
 */
export function withSegmentTable<T>(task: () => T): T {
  const outer = scope;
  scope = { text: null, table: null };
  try {
    return task();
  } finally {
    scope = outer;
  }
}

/** The segment table of a text: the shared one inside withSegmentTable, else built by one walk. */
export function segmentTable(text: string): TSegmentTable {
  if (scope === null) return buildTable(text);
  if (scope.text !== text || scope.table === null) {
    scope.table = buildTable(text);
    scope.text = text;
  }
  return scope.table;
}

function buildTable(text: string): TSegmentTable {
  let starts = new Int32Array(1024);
  let ends = new Int32Array(1024);
  let kinds = new Uint8Array(1024);
  let count = 0;
  for (const segment of segments(text)) {
    if (count === starts.length) {
      const grow = <T extends Int32Array | Uint8Array>(a: T, b: T): T => (b.set(a), b);
      starts = grow(starts, new Int32Array(count * 2));
      ends = grow(ends, new Int32Array(count * 2));
      kinds = grow(kinds, new Uint8Array(count * 2));
    }
    starts[count] = segment.start;
    ends[count] = segment.end;
    kinds[count] = KIND_CODES.indexOf(segment.kind);
    count += 1;
  }
  return { count, starts, ends, kinds };
}
