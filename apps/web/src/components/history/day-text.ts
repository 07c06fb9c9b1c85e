/** A calendar day between its three forms: `yyyy-MM-dd` (state, API), `dd/MM/yyyy` (screen), Date. */

const pad = (n: number) => String(n).padStart(2, '0');

/** 2025-11-14 → 14/11/2025. */
export function dayToFrench(day: string): string {
  const [year, month, date] = day.split('-');
  return `${date}/${month}/${year}`;
}

/** A local Date → 2025-11-14 (its calendar day in the browser's zone, as the calendar shows it). */
export function dateToDay(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** 2025-11-14 → local midnight of that day (what the calendar selects). */
export function dayToDate(day: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, date);
}

/**
 * What a user typed: `14/11/2025`, `14/11/25`, `14-11-2025`, `14.11.2025`, `1/2/2025`. Null when it
 * is not a real day (31/02), or outside 1900–9999.
 */
export function parseFrenchDay(text: string): string | null {
  const m = /^\s*(\d{1,2})\s*[/.-]\s*(\d{1,2})\s*[/.-]\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!m) return null;
  const date = Number(m[1]);
  const month = Number(m[2]);
  let year = Number(m[3]);
  if (m[3]!.length === 2) year += 2000;
  if (year < 1900 || month < 1 || month > 12 || date < 1) return null;
  const probe = new Date(year, month - 1, date);
  if (probe.getMonth() !== month - 1 || probe.getDate() !== date) return null;
  return `${year}-${pad(month)}-${pad(date)}`;
}
