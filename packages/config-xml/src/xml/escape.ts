import { ConfigXmlError } from '../errors.ts';

/**
 * XML text of a raw source range: line ends normalised (CRLF and CR become LF, as XML 1.0 §2.11
 * says) and the five predefined entities and numeric character references replaced. The range is
 * known to be well-formed (the scanner checked it), so no other reference can occur.
 */
export function unescapeXml(raw: string): string {
  if (raw.indexOf('&') === -1 && raw.indexOf('\r') === -1) return raw;
  let s = raw;
  if (s.indexOf('\r') !== -1) s = s.replace(/\r\n?/g, '\n');
  if (s.indexOf('&') === -1) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|apos|quot);/g, (_m, ref: string) => {
    switch (ref) {
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'amp':
        return '&';
      case 'apos':
        return "'";
      case 'quot':
        return '"';
      default:
        return String.fromCodePoint(
          ref.charCodeAt(1) === 120 ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10),
        );
    }
  });
}

/** CDATA content: only line ends are normalised. */
export function normaliseLineEnds(raw: string): string {
  return raw.indexOf('\r') === -1 ? raw : raw.replace(/\r\n?/g, '\n');
}

/** True when the code point may appear in an XML 1.0 document. */
export function isXmlCodePoint(cp: number): boolean {
  return (
    cp === 9 ||
    cp === 10 ||
    cp === 13 ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/**
 * Markup for a text value: `&`, `<`, `>` escaped; CR written `&#13;` (the connector's own style,
 * it would be lost as a line end otherwise); LF written as the document's line end `newline`.
 * Characters XML cannot carry are refused.
 */
export function escapeText(value: string, newline: string): string {
  let out = '';
  let last = 0;
  const n = value.length;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    let rep: string | null = null;
    if (c < 0x3f) {
      if (c === 38) rep = '&amp;';
      else if (c === 60) rep = '&lt;';
      else if (c === 62) rep = '&gt;';
      else if (c === 13) rep = '&#13;';
      else if (c === 10) rep = newline === '\n' ? null : newline;
      else if (c < 0x20 && c !== 9) throw invalidChar(c);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const next = value.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
      else throw invalidChar(c);
    } else if (c === 0xfffe || c === 0xffff) throw invalidChar(c);
    if (rep !== null) {
      out += value.slice(last, i) + rep;
      last = i + 1;
    }
  }
  return last === 0 ? value : out + value.slice(last);
}

function invalidChar(c: number): ConfigXmlError {
  return new ConfigXmlError(
    'invalid-char',
    `La valeur contient un caractère non autorisé dans un document XML (U+${c.toString(16).toUpperCase().padStart(4, '0')}).`,
  );
}
