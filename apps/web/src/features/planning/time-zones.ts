import { isValidTimeZone, zoneOffsetMinutes } from '@synchro/contracts/time';

/**
 * The time zones offered by Planification (GMT-12 to GMT+12 with labels: docs/spec-notes.md, Web:
 * Planification). Each is an IANA
 * zone: its name is what Planifications/FuseauHoraire stores (the dashboard's display zone), its
 * offset at the time of the save goes to FuseauHoraireValeur (docs/decisions.md). `standard` is the
 * offset in hours outside summer time, which orders the list and starts the label.
 */
export interface TimeZoneChoice {
  zone: string;
  standard: number;
  name: string;
}

export const TIME_ZONES: readonly TimeZoneChoice[] = [
  { zone: 'Etc/GMT+12', standard: -12, name: 'Ligne de changement de date (ouest)' },
  { zone: 'Pacific/Pago_Pago', standard: -11, name: 'Samoa américaines' },
  { zone: 'Pacific/Tahiti', standard: -10, name: 'Polynésie française (Tahiti)' },
  { zone: 'America/Anchorage', standard: -9, name: 'Alaska' },
  { zone: 'America/Los_Angeles', standard: -8, name: 'Heure du Pacifique (Los Angeles)' },
  { zone: 'America/Denver', standard: -7, name: 'Heure des Rocheuses (Denver)' },
  { zone: 'America/Mexico_City', standard: -6, name: 'Heure du Centre (Mexico)' },
  { zone: 'America/Toronto', standard: -5, name: "Heure de l'Est (Montréal, Toronto)" },
  { zone: 'America/Martinique', standard: -4, name: 'Antilles (Guadeloupe, Martinique)' },
  { zone: 'America/Cayenne', standard: -3, name: 'Guyane' },
  { zone: 'America/Miquelon', standard: -3, name: 'Saint-Pierre-et-Miquelon' },
  { zone: 'Atlantic/South_Georgia', standard: -2, name: 'Géorgie du Sud' },
  { zone: 'Atlantic/Azores', standard: -1, name: 'Açores' },
  { zone: 'UTC', standard: 0, name: 'Temps universel coordonné' },
  { zone: 'Europe/London', standard: 0, name: 'Heure de Greenwich (Londres, Lisbonne)' },
  { zone: 'Europe/Paris', standard: 1, name: "Heure d'Europe centrale (Paris, Bruxelles)" },
  { zone: 'Europe/Athens', standard: 2, name: "Heure d'Europe de l'Est (Athènes, Helsinki)" },
  { zone: 'Europe/Moscow', standard: 3, name: 'Moscou' },
  { zone: 'Indian/Mayotte', standard: 3, name: 'Mayotte' },
  { zone: 'Indian/Reunion', standard: 4, name: 'La Réunion' },
  { zone: 'Indian/Kerguelen', standard: 5, name: 'Terres australes (Kerguelen)' },
  { zone: 'Asia/Dhaka', standard: 6, name: 'Bangladesh (Dacca)' },
  { zone: 'Asia/Bangkok', standard: 7, name: 'Indochine (Bangkok, Hanoï)' },
  { zone: 'Asia/Shanghai', standard: 8, name: 'Chine (Pékin, Singapour)' },
  { zone: 'Asia/Tokyo', standard: 9, name: 'Japon (Tokyo)' },
  { zone: 'Australia/Sydney', standard: 10, name: "Australie de l'Est (Sydney)" },
  { zone: 'Pacific/Noumea', standard: 11, name: 'Nouvelle-Calédonie (Nouméa)' },
  { zone: 'Pacific/Wallis', standard: 12, name: 'Wallis-et-Futuna' },
];

const gmt = (hours: number) => (hours === 0 ? 'GMT' : `GMT${hours > 0 ? '+' : '-'}${Math.abs(hours)}`);

/** 'GMT+1 Heure d'Europe centrale (Paris, Bruxelles)'. */
export const timeZoneLabel = (choice: TimeZoneChoice) => `${gmt(choice.standard)} ${choice.name}`;

/** Minutes → '+01:00', '-03:30' (the stored form of FuseauHoraireValeur). */
export function formatOffsetValue(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** '+01:00', '-3:30', 'GMT+1', 'UTC-5', 'GMT' → minutes east of UTC; null when unreadable. */
export function parseOffset(value: string): number | null {
  const v = value.trim();
  let m = /^([+-])(\d{1,2}):?(\d{2})$/.exec(v);
  if (!m) m = /^(?:GMT|UTC)\s*(?:([+-])(\d{1,2})(?::?(\d{2}))?)?(?:\s|$)/i.exec(v);
  if (!m) return null;
  if (!m[1]) return 0;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? '0');
  if (minutes > 14 * 60) return null;
  return m[1] === '-' ? -minutes : minutes;
}

/**
 * The offset of the stored zone now, in minutes: the IANA zone's (summer time included), else the
 * offset read from the stored value or label; null when none can be read.
 */
export function currentOffsetMinutes(zone: string, storedOffset: string, now = Date.now()): number | null {
  if (zone !== '' && isValidTimeZone(zone)) return zoneOffsetMinutes(now, zone);
  return parseOffset(storedOffset) ?? parseOffset(zone);
}

/** The options of the select: the list, plus the stored zone when it is not in it (kept as is). */
export function timeZoneOptions(current: string): { value: string; label: string }[] {
  const options = TIME_ZONES.map((c) => ({ value: c.zone, label: timeZoneLabel(c) }));
  if (current !== '' && !TIME_ZONES.some((c) => c.zone === current)) {
    options.unshift({ value: current, label: `${current} (valeur enregistrée)` });
  }
  return options;
}
