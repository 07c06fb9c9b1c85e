import { AppError } from './errors.ts';

/**
 * The version a client edited, from `If-Match: "<version>"` (also `W/"<v>"` or a bare number);
 * null when absent or `*` (the legacy API: apply to the newest version).
 */
export function parseIfMatch(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '' || value.trim() === '*') return null;
  const m = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(value);
  if (!m)
    throw new AppError(400, 'En-tête If-Match invalide : version attendue, par exemple "12".', 'VALIDATION');
  return Number(m[1]);
}
