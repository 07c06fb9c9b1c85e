import { isXmlCodePoint } from '../../xml/escape.ts';

/** The lexical faults looked for in character data, as global patterns. */

/** '&' that does not start one of the five predefined entities or a character reference. */
export const BARE_AMPERSAND = /&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)/g;

/**
 * Double-escaping artefacts: an escaped '&' followed by what was an entity or character
 * reference (`&amp;apos;` shows as the literal text "&apos;"). A plain `&amp;` is not one.
 */
export const DOUBLE_ESCAPED = /&amp;((?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)/g;

/**
 * A '<' in text that opens no markup (`a < b`): not followed by a name, '!', '?' or '/', and with
 * no '>' after it on its line before the next '<' (`< Nom>` looks like a damaged tag, not text).
 */
export const STRAY_LESS_THAN = /<(?![!?A-Za-z_:\u00C0-\uFFFF/])(?=[^<>\n]*(?:<|\n|$))/g;

/** ']]>' is forbidden in character data. */
export const CDATA_END = /\]\]>/g;

/** Characters XML 1.0 forbids anywhere: C0 controls except tab/LF/CR, U+FFFE, U+FFFF, lone surrogates. */
export const INVALID_CHAR =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Character references; see isInvalidCharRef for the ones pointing at a forbidden character. */
export const CHAR_REF = /&#(?:x([0-9a-fA-F]+)|([0-9]+));/g;

/** Is this character reference (`&#1;`, `&#xFFFF;`) one to a character XML forbids? */
export function isInvalidCharRef(reference: string): boolean {
  const hex = /^&#x([0-9a-fA-F]+);$/.exec(reference);
  const digits = hex ? hex[1] : /^&#([0-9]+);$/.exec(reference)?.[1];
  if (digits === undefined) return false;
  if (digits.length > 8) return true;
  return !isXmlCodePoint(parseInt(digits, hex ? 16 : 10));
}
