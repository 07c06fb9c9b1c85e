import { segments, type TSegmentKind } from '../segments.ts';

/** Occurrences of a pattern: how many and where the first one is. */
export interface TOccurrences {
  count: number;
  /** Offset of the first occurrence, -1 when none. */
  first: number;
}

/** Segments where character data and attribute values live (not comments, CDATA, PIs, DOCTYPE). */
const DATA_KINDS: ReadonlySet<TSegmentKind> = new Set(['text', 'start']);

/** Count the matches of a global pattern inside text and start-tag segments only. */
export function countInData(text: string, pattern: RegExp): TOccurrences {
  const found: TOccurrences = { count: 0, first: -1 };
  for (const segment of segments(text)) {
    if (!DATA_KINDS.has(segment.kind)) continue;
    const slice = text.slice(segment.start, segment.end);
    pattern.lastIndex = 0;
    for (let match = pattern.exec(slice); match !== null; match = pattern.exec(slice)) {
      if (found.first === -1) found.first = segment.start + match.index;
      found.count += 1;
      if (match[0].length === 0) pattern.lastIndex += 1;
    }
  }
  return found;
}

/** Rewrite the matches of a global pattern inside text and start-tag segments only. */
export function replaceInData(
  text: string,
  pattern: RegExp,
  replace: (match: string) => string,
  kinds: ReadonlySet<TSegmentKind> = DATA_KINDS,
): { text: string; found: TOccurrences } {
  const found: TOccurrences = { count: 0, first: -1 };
  const parts: string[] = [];
  let copied = 0;
  for (const segment of segments(text)) {
    if (!kinds.has(segment.kind)) continue;
    const slice = text.slice(segment.start, segment.end);
    pattern.lastIndex = 0;
    const rewritten = slice.replace(pattern, (match: string, ...rest: unknown[]) => {
      const index = rest.find((value) => typeof value === 'number') as number;
      const next = replace(match);
      if (next !== match) {
        if (found.first === -1) found.first = segment.start + index;
        found.count += 1;
      }
      return next;
    });
    if (rewritten !== slice) {
      parts.push(text.slice(copied, segment.start), rewritten);
      copied = segment.end;
    }
  }
  if (parts.length === 0) return { text, found };
  parts.push(text.slice(copied));
  return { text: parts.join(''), found };
}

export const TEXT_ONLY: ReadonlySet<TSegmentKind> = new Set(['text']);
