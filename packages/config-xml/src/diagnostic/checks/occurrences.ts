import { kindAt, segmentTable, shareShiftedTable, type TSegmentKind } from '../segments.ts';
import { CHAR_REF, INVALID_CHAR, isInvalidCharRef } from './patterns.ts';

/** Occurrences of a pattern: how many and where the first one is. */
export interface TOccurrences {
  count: number;
  /** Offset of the first occurrence, -1 when none. */
  first: number;
}

/** Segments where character data and attribute values live (not comments, CDATA, PIs, DOCTYPE). */
export const DATA_KINDS: ReadonlySet<TSegmentKind> = new Set(['text', 'start']);
export const TEXT_ONLY: ReadonlySet<TSegmentKind> = new Set(['text']);

/**
 * Matches of a global pattern that lie inside segments of the given kinds. One pass of the pattern
 * over the whole text, merged with the segment table (built once per text, see segmentTable), so a
 * pattern that never matches costs a single regular-expression scan. The patterns
 * used here never match '<' or '>', so a match cannot straddle two segments.
 */
export function* dataMatches(
  text: string,
  pattern: RegExp,
  kinds: ReadonlySet<TSegmentKind> = DATA_KINDS,
): Generator<{ index: number; match: string }> {
  pattern.lastIndex = 0;
  let found = pattern.exec(text);
  if (found === null) return;
  const table = segmentTable(text);
  let k = 0;
  while (found !== null) {
    const index = found.index;
    while (k < table.count && (table.ends[k] as number) <= index) k += 1;
    if (k === table.count) return;
    if (index >= (table.starts[k] as number) && kinds.has(kindAt(table, k))) yield { index, match: found[0] };
    if (found[0].length === 0) pattern.lastIndex += 1;
    found = pattern.exec(text);
  }
}

/** Count the matches of a global pattern inside data segments only. */
export function countInData(text: string, pattern: RegExp, kinds?: ReadonlySet<TSegmentKind>): TOccurrences {
  const occurrences: TOccurrences = { count: 0, first: -1 };
  for (const { index } of dataMatches(text, pattern, kinds)) {
    if (occurrences.first === -1) occurrences.first = index;
    occurrences.count += 1;
  }
  return occurrences;
}

/**
 * Rewrite the matches of a global pattern inside data segments only. `keepsSegments`: the caller
 * vouches that neither the matches nor their replacements contain anything that cuts segments
 * (only `&`, `;`, `#` and ASCII letters and digits: no '<', '>', quote, blank, '/', '=', '!' or
 * '?'), so the segment table of the result is the shared one moved (no lexer walk again).
 */
export function replaceInData(
  text: string,
  pattern: RegExp,
  replace: (match: string) => string,
  kinds: ReadonlySet<TSegmentKind> = DATA_KINDS,
  keepsSegments = false,
): { text: string; found: TOccurrences } {
  const found: TOccurrences = { count: 0, first: -1 };
  const parts: string[] = [];
  const edits: { at: number; removed: number; added: number }[] = [];
  let copied = 0;
  for (const { index, match } of dataMatches(text, pattern, kinds)) {
    const next = replace(match);
    if (next === match) continue;
    if (found.first === -1) found.first = index;
    found.count += 1;
    parts.push(text.slice(copied, index), next);
    if (keepsSegments) edits.push({ at: index, removed: match.length, added: next.length });
    copied = index + match.length;
  }
  if (parts.length === 0) return { text, found };
  parts.push(text.slice(copied));
  const out = parts.join('');
  if (keepsSegments && edits.every((e) => SEGMENT_NEUTRAL.test(text.slice(e.at, e.at + e.removed))))
    shareShiftedTable(text, out, edits);
  return { text: out, found };
}

/** What keepsSegments allows in a match (its replacements are checked by the tests). */
const SEGMENT_NEUTRAL = /^[&;#A-Za-z0-9]*$/;

/**
 * Characters XML 1.0 forbids and character references to them, anywhere in the text (markup
 * included): how many, and the offset of the first.
 */
export function countInvalidCharacters(text: string): TOccurrences {
  let count = 0;
  let first = -1;
  INVALID_CHAR.lastIndex = 0;
  for (let match = INVALID_CHAR.exec(text); match !== null; match = INVALID_CHAR.exec(text)) {
    if (first === -1) first = match.index;
    count += 1;
  }
  CHAR_REF.lastIndex = 0;
  for (let match = CHAR_REF.exec(text); match !== null; match = CHAR_REF.exec(text)) {
    if (!isInvalidCharRef(match[0])) continue;
    if (first === -1 || match.index < first) first = match.index;
    count += 1;
  }
  return { count, first };
}
