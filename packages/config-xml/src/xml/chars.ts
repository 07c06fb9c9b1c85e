/** Character codes and tests of the passes over XML text (scan.ts, record/plain-check.ts). */

export const LT = 60;
export const GT = 62;
export const AMP = 38;
export const SLASH = 47;
export const QMARK = 63;
export const BANG = 33;
export const EQ = 61;
export const DQ = 34;
export const SQ = 39;
export const SEMI = 59;

/** XML white space: space, LF, CR, tab. */
export function isWs(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** Whether text[a, a + len) and text[b, b + len) hold the same characters (both inside the text). */
export function sameChars(text: string, a: number, b: number, len: number): boolean {
  if (b + len > text.length) return false;
  for (let k = 0; k < len; k++) if (text.charCodeAt(a + k) !== text.charCodeAt(b + k)) return false;
  return true;
}
