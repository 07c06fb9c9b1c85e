import { decodeConnectorText, encodeConnectorText } from '../codec.ts';

/**
 * An import record as the connector stores it is in its text convention (UTF-8 bytes read as
 * Latin-1: docs/spec-notes.md, The configuration document). The console shows it decoded and
 * stores an edit encoded again.
 *
 * Only character data changes: text, CDATA content and attribute values. Markup (names,
 * comments, processing instructions, the declaration), references such as `&#233;` and a byte
 * order mark stay as written. Each maximal run of non-ASCII characters is converted on its own:
 * a UTF-8 sequence only has bytes ≥ 0x80, so a run never straddles markup, a reference or ASCII
 * text, and decoding one never produces ASCII. Hence `encodeRecordText(decodeRecordText(s)) ===
 * s` for every text whose character data is in the convention (a run that is not, e.g. accented
 * text typed in clear, is shown as it is and stored in the convention).
 *
 * Both are lenient (a broken record is converted as far as it reads) and cost one `indexOf`
 * walk plus one regular expression pass; a text without non-ASCII character data is returned as
 * it is, without a copy.
 */

export function decodeRecordText(stored: string): string {
  return mapCharacterData(stored, decodeConnectorText);
}

export function encodeRecordText(display: string): string {
  return mapCharacterData(display, encodeConnectorText);
}

/**
 * Whether a whole text is already in the connector's convention, by the test the earlier console's
 * client makes when it reads (docs/decisions.md, « The earlier console's own client »): every
 * character is at most U+00FF, and those characters taken as bytes are valid UTF-8 holding at
 * least one multi-byte sequence. A leading byte order mark is not counted. Plain ASCII is not
 * « already encoded » (it is the same in both forms). One strict pass, no copy.
 *
 * The one ambiguity: a text typed in clear whose only non-ASCII characters happen to pair up into
 * valid UTF-8 (`Ã©` typed as such, `Â°`…) passes the test and is taken as encoded.
 */
export function isInConnectorForm(text: string): boolean {
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let multiByte = false;
  while (i < n) {
    const b0 = text.charCodeAt(i);
    if (b0 < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b0 >= 0xc2 && b0 <= 0xdf) need = 1;
    else if (b0 >= 0xe0 && b0 <= 0xef) {
      need = 2;
      if (b0 === 0xe0) lo = 0xa0;
      else if (b0 === 0xed) hi = 0x9f;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      need = 3;
      if (b0 === 0xf0) lo = 0x90;
      else if (b0 === 0xf4) hi = 0x8f;
    } else return false; // a character above U+00FF, a stray continuation byte, C0, C1, F5–FF
    for (let k = 1; k <= need; k++) {
      const b = i + k < n ? text.charCodeAt(i + k) : -1;
      if (b < lo || b > hi) return false;
      lo = 0x80;
      hi = 0xbf;
    }
    multiByte = true;
    i += need + 1;
  }
  return multiByte;
}

/**
 * The stored form of a record's XML sent by a client: a text already in the connector's
 * convention (isInConnectorForm: the earlier console's client encodes every leaf before it sends)
 * is stored as it is; any other (our screens send the decoded text) is encoded once.
 */
export function recordTextForStorage(xml: string): string {
  return isInConnectorForm(xml) ? xml : encodeRecordText(xml);
}

const NON_ASCII_RUN = /[\u0080-\uFFFF]+/g;

/** Replaces every non-ASCII run of character data with `convert(run)`. */
function mapCharacterData(text: string, convert: (run: string) => string): string {
  const runs = new RegExp(NON_ASCII_RUN.source, 'g');
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  runs.lastIndex = start;
  let next = runs.exec(text);
  if (next === null) return text;

  const out: string[] = [];
  let copied = 0;
  /** Converts the runs lying in [from, to), a range of character data. */
  const data = (from: number, to: number): void => {
    while (next !== null && next.index < to) {
      if (next.index >= from) {
        const run = next[0];
        const converted = convert(run);
        if (converted !== run) {
          out.push(text.slice(copied, next.index), converted);
          copied = next.index + run.length;
        }
      }
      runs.lastIndex = next.index + next[0].length;
      next = runs.exec(text);
    }
  };
  /** Skips the runs before `offset` (they lie in markup). */
  const markupUntil = (offset: number): void => {
    if (next !== null && next.index < offset) {
      runs.lastIndex = offset;
      next = runs.exec(text);
    }
  };

  const n = text.length;
  let p = start;
  while (p < n && next !== null) {
    let q = text.indexOf('<', p);
    if (q === -1) q = n;
    data(p, q);
    if (q >= n) break;
    p = markup(text, q, data);
    markupUntil(p);
  }
  if (copied === 0) return text;
  out.push(text.slice(copied));
  return out.join('');
}

/**
 * The markup starting with `<` at `q`: reports the character data inside it (CDATA content,
 * attribute values) to `data`; returns the offset after it. Unterminated markup runs to the end.
 */
function markup(text: string, q: number, data: (from: number, to: number) => void): number {
  const n = text.length;
  const end = (token: string, from: number): number => {
    const e = text.indexOf(token, from);
    return e === -1 ? n : e + token.length;
  };
  if (text.startsWith('<!--', q)) return end('-->', q + 4);
  if (text.startsWith('<![CDATA[', q)) {
    const e = text.indexOf(']]>', q + 9);
    data(q + 9, e === -1 ? n : e);
    return e === -1 ? n : e + 3;
  }
  if (text.charCodeAt(q + 1) === 63 /* ? */) return end('?>', q + 2);
  if (text.charCodeAt(q + 1) === 33 /* ! */) return end('>', q + 2);
  // A tag: quoted attribute values are character data.
  let i = q + 1;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 62 /* > */) return i + 1;
    if (c === 60 /* < */) return i; // broken tag: the next markup starts here
    if (c === 34 || c === 39) {
      const close = text.indexOf(c === 34 ? '"' : "'", i + 1);
      if (close === -1) return n;
      data(i + 1, close);
      i = close + 1;
    } else i++;
  }
  return n;
}
