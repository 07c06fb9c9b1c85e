/** Shown when the licence names no software. */
export const DEFAULT_SOFTWARE_NAME = 'votre ERP';

/**
 * The ERP's display name from the licence's Tablettes string: entries separated by `|`, fields by
 * `;`; the second field of the first entry ("1;EBP GesCom Open Line;EBPGesComOL|2;…").
 */
export function softwareNameFromTablettes(tablettes: string | null | undefined): string {
  const first = (tablettes ?? '').split('|')[0] ?? '';
  const name = first.split(';')[1]?.trim();
  return name || DEFAULT_SOFTWARE_NAME;
}
