/**
 * The items of a batch body `{"<name>": [item, item, …]}` located in its bytes by one pass that
 * neither decodes nor parses it, so that a worker can decode and parse the items a slice at a
 * time and hand the first rows over before it has read the rest (connector/checked-batches.ts).
 *
 * The pass only finds where each item starts and ends: strings are skipped (`"` not preceded by
 * an odd run of `\`), brackets counted outside them. On a body that is valid JSON of exactly that
 * shape the ranges are the items' own, so each range then parses on its own to the item the whole
 * body holds, and a range that does not parse (or is not UTF-8) means the whole body would not
 * either (separators are ASCII: no UTF-8 sequence spans two ranges). Anything else (another
 * member, the member twice, a byte order mark, an escaped name, not JSON at all) gives null: the
 * caller reads the body whole, as every body was read before.
 */

const WS_SPACE = 0x20;
const WS_TAB = 0x09;
const WS_LF = 0x0a;
const WS_CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

export interface ItemRanges {
  /** Offset of each item's first byte. */
  starts: number[];
  /** Offset just after each item's last byte. */
  ends: number[];
}

function isWs(c: number | undefined): boolean {
  return c === WS_SPACE || c === WS_LF || c === WS_CR || c === WS_TAB;
}

function skipWs(b: Uint8Array, i: number): number {
  while (i < b.length && isWs(b[i])) i++;
  return i;
}

/** Offset after the string starting at `i` (its opening quote), or -1 when it does not end. */
function skipString(b: Uint8Array, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = b.indexOf(QUOTE, from);
    if (q === -1) return -1;
    let k = q - 1;
    while (b[k] === BACKSLASH) k--;
    // An even run of backslashes before the quote (none included): it ends the string.
    if ((q - 1 - k) % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** Offset after the value starting at `i`, or -1 when its end is not found. */
function skipValue(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c === QUOTE) return skipString(b, i);
  if (c === OPEN_BRACE || c === OPEN_BRACKET) {
    let depth = 0;
    let j = i;
    while (j < b.length) {
      const d = b[j] as number;
      if (d === QUOTE) {
        j = skipString(b, j);
        if (j === -1) return -1;
        continue;
      }
      if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
      else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return j + 1;
      }
      j++;
    }
    return -1;
  }
  // A number, true, false or null: up to the next separator.
  let j = i;
  while (j < b.length) {
    const d = b[j];
    if (d === COMMA || d === CLOSE_BRACKET || d === CLOSE_BRACE || isWs(d)) break;
    j++;
  }
  return j === i ? -1 : j;
}

/**
 * The byte ranges of the items of `{"<name>": [ … ]}` (whitespace allowed between tokens, as
 * JSON allows), or null when the body is not plainly that (see above). `name` is ASCII.
 */
export function envelopeItemRanges(b: Uint8Array, name: string): ItemRanges | null {
  let i = skipWs(b, 0);
  if (b[i] !== OPEN_BRACE) return null;
  i = skipWs(b, i + 1);
  if (b[i] !== QUOTE) return null;
  for (let k = 0; k < name.length; k++) if (b[i + 1 + k] !== name.charCodeAt(k)) return null;
  i += name.length + 1;
  if (b[i] !== QUOTE) return null;
  i = skipWs(b, i + 1);
  if (b[i] !== COLON) return null;
  i = skipWs(b, i + 1);
  if (b[i] !== OPEN_BRACKET) return null;
  i = skipWs(b, i + 1);
  const starts: number[] = [];
  const ends: number[] = [];
  if (b[i] === CLOSE_BRACKET) i++;
  else {
    for (;;) {
      const end = skipValue(b, i);
      if (end === -1) return null;
      starts.push(i);
      ends.push(end);
      i = skipWs(b, end);
      if (b[i] === COMMA) {
        i = skipWs(b, i + 1);
        continue;
      }
      if (b[i] !== CLOSE_BRACKET) return null;
      i++;
      break;
    }
  }
  i = skipWs(b, i);
  if (b[i] !== CLOSE_BRACE) return null;
  i = skipWs(b, i + 1);
  return i === b.length ? { starts, ends } : null;
}
