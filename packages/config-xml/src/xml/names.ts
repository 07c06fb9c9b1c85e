/** XML 1.0 (fifth edition) name characters, on UTF-16 code units. */

export function isNameStartCode(c: number): boolean {
  if (c < 0x80) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 58;
  return (
    (c >= 0xc0 && c <= 0xd6) ||
    (c >= 0xd8 && c <= 0xf6) ||
    (c >= 0xf8 && c <= 0x2ff) ||
    (c >= 0x370 && c <= 0x37d) ||
    (c >= 0x37f && c <= 0x1fff) ||
    c === 0x200c ||
    c === 0x200d ||
    (c >= 0x2070 && c <= 0x218f) ||
    (c >= 0x2c00 && c <= 0x2fef) ||
    (c >= 0x3001 && c <= 0xd7ff) ||
    (c >= 0xf900 && c <= 0xfdcf) ||
    (c >= 0xfdf0 && c <= 0xfffd) ||
    // supplementary planes #x10000-#xEFFFF: high surrogates D800-DB7F (pairing checked elsewhere)
    (c >= 0xd800 && c <= 0xdfff)
  );
}

export function isNameCode(c: number): boolean {
  if (c < 0x80) {
    return (
      (c >= 97 && c <= 122) ||
      (c >= 65 && c <= 90) ||
      (c >= 48 && c <= 57) ||
      c === 95 ||
      c === 58 ||
      c === 45 ||
      c === 46
    );
  }
  return c === 0xb7 || (c >= 0x300 && c <= 0x36f) || c === 0x203f || c === 0x2040 || isNameStartCode(c);
}
