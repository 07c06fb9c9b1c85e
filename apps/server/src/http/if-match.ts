import { AppError } from './errors.ts';

/**
 * The version a client edited, from `If-Match: "<version>"` (also `W/"<v>"`, a bare number, or
 * the ETag of a section read, `"<version>-<hash>[-br|-gzip]"`);
 * null when absent or `*` (the legacy API: apply to the newest version).
 */
export function parseIfMatch(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '' || value.trim() === '*') return null;
  const m = /^\s*(?:W\/)?"?(\d{1,9})(?:-[A-Za-z0-9_-]{1,40})?"?\s*$/.exec(value);
  if (!m)
    throw new AppError(400, 'En-tête If-Match invalide : version attendue, par exemple "12".', 'VALIDATION');
  return Number(m[1]);
}
