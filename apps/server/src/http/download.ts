/**
 * The name of a downloaded file in `Content-Disposition` (RFC 6266): `filename` for old clients
 * (ASCII only: accents dropped, other characters `_`), `filename*` with the UTF-8 name. The name
 * is never a path and never breaks the header: folders, quotes, control characters (CR, LF…)
 * are removed first. Nor does it lie about itself: invisible format characters go too, the
 * bidirectional controls above all (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), with
 * which « facture<U+202E>fdp.exe » shows as « factureexe.pdf » (Trojan Source, CVE-2021-42574).
 */

/**
 * What a file name never keeps: control characters (Cc), format characters (Cf: the bidirectional
 * controls and marks, zero widths, word joiner, byte order mark, soft hyphen, tags), line and
 * paragraph separators, and the double quote.
 */
const UNSAFE_IN_NAME = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}"]/gu;

/** The file name part of a stored name, without what could break a header or name a folder. */
export function safeFileName(name: string, fallback = 'fichier'): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  // trimEnd, not /\s+$/: that pattern is quadratic in a long run of blanks inside the name.
  const cleaned = base
    .replace(UNSAFE_IN_NAME, '')
    .replace(/^[\s.]+/, '')
    .trimEnd();
  return cleaned === '' ? fallback : cleaned;
}

function asciiFallback(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/[\\%]/g, '_');
}

/** RFC 5987 value: percent-encoded UTF-8, `'()*` included. */
function extValue(name: string): string {
  return encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function attachmentDisposition(name: string): string {
  const safe = safeFileName(name);
  const ascii = asciiFallback(safe);
  return ascii === safe
    ? `attachment; filename="${safe}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${extValue(safe)}`;
}

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  xml: 'application/xml',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
  zip: 'application/zip',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The content type a file name's extension says; binary when unknown. */
export function contentTypeOf(name: string): string {
  const dot = name.lastIndexOf('.');
  const ext = dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}
