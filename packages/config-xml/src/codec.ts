/**
 * The connector's text convention (docs/spec-notes.md, The configuration document): it writes
 * text as UTF-8 bytes read back as Latin-1 characters, so `Léa` is stored as `LÃ©a`. These
 * functions work on plain values (XML escaping is the serialiser's business, never done here).
 *
 * - `decodeConnectorText` takes each character as one byte and decodes the bytes as UTF-8. When a
 *   character cannot be a byte, or the bytes are not valid UTF-8, the text was not in the
 *   connector's convention (plain ASCII, or text already written in clear): it is kept as is.
 *   Characters that Windows-1252 puts in 0x80–0x9F (`€` for 0x80, `‚` for 0x82...) are taken as
 *   those bytes too, since some tools read the bytes as Windows-1252 rather than Latin-1.
 * - `encodeConnectorText` does the reverse: UTF-8 bytes, each written as the Latin-1 character of
 *   the same code. `decodeConnectorText(encodeConnectorText(s)) === s` for every string without
 *   lone surrogates.
 */

const CP1252_TO_BYTE = new Map<number, number>([
  [0x20ac, 0x80],
  [0x201a, 0x82],
  [0x0192, 0x83],
  [0x201e, 0x84],
  [0x2026, 0x85],
  [0x2020, 0x86],
  [0x2021, 0x87],
  [0x02c6, 0x88],
  [0x2030, 0x89],
  [0x0160, 0x8a],
  [0x2039, 0x8b],
  [0x0152, 0x8c],
  [0x017d, 0x8e],
  [0x2018, 0x91],
  [0x2019, 0x92],
  [0x201c, 0x93],
  [0x201d, 0x94],
  [0x2022, 0x95],
  [0x2013, 0x96],
  [0x2014, 0x97],
  [0x02dc, 0x98],
  [0x2122, 0x99],
  [0x0161, 0x9a],
  [0x203a, 0x9b],
  [0x0153, 0x9c],
  [0x017e, 0x9e],
  [0x0178, 0x9f],
]);

const utf8Encoder = new TextEncoder();

/** The byte a stored character stands for, or -1 when it cannot be one. */
function byteOf(c: number): number {
  if (c <= 0xff) return c;
  return CP1252_TO_BYTE.get(c) ?? -1;
}

/** Display value of a text stored in the connector's convention (see the module comment). */
export function decodeConnectorText(stored: string): string {
  const n = stored.length;
  let i = 0;
  while (i < n && stored.charCodeAt(i) < 0x80) i++;
  if (i === n) return stored; // ASCII: identical in both conventions
  // Strict UTF-8 decoding of the bytes (same rules as a fatal TextDecoder): any fault keeps the
  // text as it is. ASCII stretches are copied as slices, each sequence adds its character.
  let out = '';
  let copied = 0;
  while (i < n) {
    const b0 = byteOf(stored.charCodeAt(i));
    if (b0 < 0) return stored;
    if (b0 < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let cp: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b0 >= 0xc2 && b0 <= 0xdf) {
      need = 1;
      cp = b0 & 0x1f;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      need = 2;
      cp = b0 & 0x0f;
      if (b0 === 0xe0) lo = 0xa0;
      else if (b0 === 0xed) hi = 0x9f;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      need = 3;
      cp = b0 & 0x07;
      if (b0 === 0xf0) lo = 0x90;
      else if (b0 === 0xf4) hi = 0x8f;
    } else return stored;
    for (let k = 1; k <= need; k++) {
      if (i + k >= n) return stored;
      const b = byteOf(stored.charCodeAt(i + k));
      if (b < lo || b > hi) return stored;
      lo = 0x80;
      hi = 0xbf;
      cp = (cp << 6) | (b & 0x3f);
    }
    // Bytes below 0x80 are ASCII characters (byteOf maps nothing else there): copied as slices.
    out += stored.slice(copied, i) + String.fromCodePoint(cp);
    i += need + 1;
    copied = i;
  }
  return copied === 0 ? stored : out + stored.slice(copied);
}

/** Stored form, in the connector's convention, of a value typed by the administrator. */
export function encodeConnectorText(value: string): string {
  const n = value.length;
  let i = 0;
  while (i < n && value.charCodeAt(i) < 0x80) i++;
  if (i === n) return value;
  const bytes = utf8Encoder.encode(value);
  let out = value.slice(0, i);
  // Chunks keep String.fromCharCode's argument count small.
  const CHUNK = 8192;
  for (let k = i; k < bytes.length; k += CHUNK) {
    out += String.fromCharCode.apply(null, Array.from(bytes.subarray(k, Math.min(k + CHUNK, bytes.length))));
  }
  return out;
}

const ARTEFACT_RE = /&(?:amp|lt|gt|apos|quot);/g;
const ARTEFACTS: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&apos;': "'",
  '&quot;': '"',
};

/**
 * Undoes one level of the double escaping left by earlier tools: after XML unescaping, a value
 * that still holds `&apos;` (stored as `&amp;apos;`) shows `'`. Used for display only; the stored
 * text is left alone until the administrator changes that value.
 */
export function undoDoubleEscaping(value: string): string {
  if (value.indexOf('&') === -1) return value;
  return value.replace(ARTEFACT_RE, (m) => ARTEFACTS[m] ?? m);
}

/** The value shown to the administrator for an XML-unescaped stored text. */
export function displayValue(xmlText: string): string {
  return undoDoubleEscaping(decodeConnectorText(xmlText));
}
