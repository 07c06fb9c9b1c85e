/**
 * Classification of non-ASCII text against the connector's convention (UTF-8 bytes stored as
 * Latin-1 characters). A UTF-8 sequence only holds bytes ≥ 0x80, so every maximal run of non-ASCII
 * characters can be judged on its own, entity references and markup being ASCII.
 *
 * Level of a piece of run: 0 = plain text (not a Latin-1 rendering of UTF-8: typed directly),
 * 1 = the convention, 2+ = encoded that many times (double, triple encoding).
 */
import { decodeConnectorText, encodeConnectorText } from '../codec.ts';

const MAX_LEVEL = 6;

/**
 * Decode one level with the package codec, or null when the run is not in the convention. For a
 * non-ASCII run a successful decoding always shortens it, so "unchanged" means "not decodable".
 */
export function decodeOneLevel(run: string): string | null {
  const decoded = decodeConnectorText(run);
  return decoded === run ? null : decoded;
}

/** Encode one level: the UTF-8 bytes of the text, each stored as one Latin-1 character. */
export const encodeOneLevel = encodeConnectorText;

/** Number of successive one-level decodings a fully valid piece supports (≥ 1). */
function depth(piece: string): number {
  let level = 0;
  let current: string | null = piece;
  while (level < MAX_LEVEL && current !== null) {
    current = decodeOneLevel(current);
    if (current !== null) level += 1;
  }
  return level;
}

export interface TRunPiece {
  text: string;
  level: number;
}

/** Length of the UTF-8 sequence (as Latin-1 characters) starting at i, or 0 when there is none. */
function sequenceLength(run: string, i: number): number {
  const lead = run.charCodeAt(i);
  const size =
    lead >= 0xc2 && lead <= 0xdf
      ? 2
      : lead >= 0xe0 && lead <= 0xef
        ? 3
        : lead >= 0xf0 && lead <= 0xf4
          ? 4
          : 0;
  if (size === 0 || i + size > run.length) return 0;
  // Cheap rejection first: a continuation byte is 0x80–0xBF (or a Windows-1252 character, > 0xFF).
  for (let k = i + 1; k < i + size; k += 1) {
    const code = run.charCodeAt(k);
    if (code < 0x80 || (code > 0xbf && code <= 0xff)) return 0;
  }
  return decodeOneLevel(run.slice(i, i + size)) === null ? 0 : size;
}

/** Runs repeat a lot in a document (the same accented words): their classification is cached. */
const cache = new Map<string, readonly TRunPiece[]>();
const CACHE_LIMIT = 4096;

/** Split a run of non-ASCII characters into pieces of one level each. */
export function classifyRun(run: string): readonly TRunPiece[] {
  let pieces = cache.get(run);
  if (pieces === undefined) {
    pieces = classify(run);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    if (run.length <= 64) cache.set(run, pieces);
  }
  return pieces;
}

function classify(run: string): TRunPiece[] {
  if (decodeOneLevel(run) !== null) return [{ text: run, level: depth(run) }];
  const pieces: TRunPiece[] = [];
  let plainStart = -1;
  let i = 0;
  while (i < run.length) {
    // Longest stretch of valid sequences from here.
    let j = i;
    for (let size = sequenceLength(run, j); size > 0; size = sequenceLength(run, j)) j += size;
    if (j > i) {
      if (plainStart !== -1) pieces.push({ text: run.slice(plainStart, i), level: 0 });
      plainStart = -1;
      const valid = run.slice(i, j);
      pieces.push({ text: valid, level: depth(valid) });
      i = j;
    } else {
      if (plainStart === -1) plainStart = i;
      i += run.charCodeAt(i) >= 0xd800 && run.charCodeAt(i) <= 0xdbff ? 2 : 1;
    }
  }
  if (plainStart !== -1) pieces.push({ text: run.slice(plainStart), level: 0 });
  return pieces;
}

/** Bring a piece to the convention's single level (encode plain text, decode extra levels). */
export function toConvention(piece: TRunPiece): string {
  if (piece.level === 0) return encodeOneLevel(piece.text);
  let text = piece.text;
  for (let level = piece.level; level > 1; level -= 1) text = decodeOneLevel(text) ?? text;
  return text;
}

/** Decode a value for display: each convention run decoded once, other runs left as they are. */
export function decodeForDisplay(value: string): string {
  return value.replace(NON_ASCII_RUN, (run) => decodeOneLevel(run) ?? run);
}

/** Maximal runs of non-ASCII characters (a byte order mark is never text to re-encode). */
// eslint-disable-next-line no-control-regex -- the ASCII range starts at U+0000
export const NON_ASCII_RUN = /[^\x00-\x7f\ufeff]+/g;
