/** Line arithmetic over a document: 1-based line numbers, lines split on '\n' ('\r' kept out of content). */

/** Offsets at which each line starts; index 0 is line 1. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  let at = text.indexOf('\n');
  while (at !== -1) {
    starts.push(at + 1);
    at = text.indexOf('\n', at + 1);
  }
  return starts;
}

/** 1-based line number of a character offset (binary search over lineStarts). */
export function lineOf(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return low + 1;
}

/** Text of a 1-based line without its line end. */
export function lineContent(text: string, starts: readonly number[], line: number): string {
  const start = starts[line - 1];
  if (start === undefined) return '';
  const next = starts[line];
  let end = next === undefined ? text.length : next - 1;
  if (end > start && text.charCodeAt(end - 1) === 13) end -= 1;
  return text.slice(start, end);
}

/** A line finder built once per document, for code that reports many lines. */
export interface TLineIndex {
  lineOf(offset: number): number;
  content(line: number): string;
  readonly count: number;
}

export function lineIndex(text: string): TLineIndex {
  let starts: number[] | null = null;
  const get = (): number[] => (starts ??= lineStarts(text));
  return {
    lineOf: (offset) => lineOf(get(), offset),
    content: (line) => lineContent(text, get(), line),
    get count() {
      return get().length;
    },
  };
}

/** The document's line ending: CRLF when the first line end is CRLF, else LF. */
export function detectLineEnding(text: string): '\r\n' | '\n' {
  const at = text.indexOf('\n');
  return at > 0 && text.charCodeAt(at - 1) === 13 ? '\r\n' : '\n';
}
