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
  // Line starts are found as far as the offsets asked for need them (a diagnostic asks for the
  // lines of a few first occurrences, mostly early in the document), all of them for `count`.
  const starts = [0];
  let searched = 0;
  const upTo = (offset: number): void => {
    while (searched !== -1 && searched <= offset) {
      const at = text.indexOf('\n', searched);
      if (at === -1) searched = -1;
      else {
        starts.push(at + 1);
        searched = at + 1;
      }
    }
  };
  const toLine = (line: number): void => {
    while (starts.length <= line && searched !== -1) upTo(searched);
  };
  return {
    lineOf: (offset) => {
      upTo(offset);
      return lineOf(starts, offset);
    },
    content: (line) => {
      toLine(line);
      return lineContent(text, starts, line);
    },
    get count() {
      upTo(text.length);
      return starts.length;
    },
  };
}

/** The document's line ending: CRLF when the first line end is CRLF, else LF. */
export function detectLineEnding(text: string): '\r\n' | '\n' {
  const at = text.indexOf('\n');
  return at > 0 && text.charCodeAt(at - 1) === 13 ? '\r\n' : '\n';
}
