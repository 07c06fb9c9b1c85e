import type {
  TPlanificationsPayload,
  TPlanificationsScreenView,
  TPlanning,
  TXmlInfo,
} from '@synchro/contracts';
import { withStored } from '../../forms/with-stored.ts';
import { currentOffsetMinutes, formatOffsetValue } from './time-zones.ts';

export interface PlanningForm {
  /** FuseauHoraire: an IANA zone (or whatever the document holds); '' when none is stored. */
  timeZone: string;
  /** FuseauHoraireValeur as read (used only when the zone is not an IANA name). */
  timeZoneOffset: string;
  plannings: TPlanning[];
  /** Info/Exe and Info/Serial as the server read them, sent back with the save (docs/spec-notes.md, Web: Planification). */
  xmlInfo: TXmlInfo;
}

/** Days 1 Lundi … 7 Dimanche, 8 Tous les jours (docs/spec-notes.md, Web: Planification). */
export const DAY_OPTIONS = [
  { value: 1, label: 'Lundi' },
  { value: 2, label: 'Mardi' },
  { value: 3, label: 'Mercredi' },
  { value: 4, label: 'Jeudi' },
  { value: 5, label: 'Vendredi' },
  { value: 6, label: 'Samedi' },
  { value: 7, label: 'Dimanche' },
  { value: 8, label: 'Tous les jours' },
] as const;

/** C Complète, R Incrémentale, I Import Saisies Mobiles (same place). */
export const TYPE_OPTIONS = [
  { value: 'C', label: 'Complète' },
  { value: 'R', label: 'Incrémentale' },
  { value: 'I', label: 'Import Saisies Mobiles' },
] as const;

/** 15-minute steps from 00:00 to 23:45 (same place). */
export const TIME_OPTIONS: readonly string[] = Array.from({ length: 96 }, (_, i) => {
  const minutes = i * 15;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
});

/** What 'Ajouter' adds: every day, 00:00, complete (same place). */
export const NEW_PLANNING: TPlanning = { day: 8, time: '00:00', type: 'C' };

export const dayLabel = (day: number) => DAY_OPTIONS.find((d) => d.value === day)?.label ?? `Jour ${day}`;
export const typeLabel = (type: string) => TYPE_OPTIONS.find((t) => t.value === type)?.label ?? type;

/** '8:00' → '08:00'; anything else unchanged. */
const normaliseTime = (time: string) => (/^\d:\d\d$/.test(time.trim()) ? `0${time.trim()}` : time.trim());

export const timeOptions = (current: string) =>
  withStored(
    TIME_OPTIONS.map((t) => ({ value: t, label: t })),
    current,
    (t) => t,
  );

export const toPlanningForm = (view: TPlanificationsScreenView): PlanningForm => ({
  timeZone: view.timeZone.trim(),
  timeZoneOffset: view.timeZoneOffset.trim(),
  plannings: view.plannings.map((p) => ({ day: p.day, time: normaliseTime(p.time), type: p.type.trim() })),
  xmlInfo: view.xmlInfo,
});

/** `{value, label}` of the save: label = the zone as stored, value = its offset now (±hh:mm). */
export function timeZonePayload(
  form: PlanningForm,
  now = Date.now(),
): { value: string; label: string } | null {
  if (form.timeZone === '') return null;
  const offset = currentOffsetMinutes(form.timeZone, form.timeZoneOffset, now);
  if (offset === null) return null;
  return { value: formatOffsetValue(offset), label: form.timeZone };
}

/** POST /api/plannings. The time zone is left out only when none can be written. */
export function toPlanningPayload(form: PlanningForm): TPlanificationsPayload {
  const timeZone = timeZonePayload(form);
  return {
    plannings: form.plannings.map((p) => ({ day: p.day, time: p.time, type: p.type as 'C' | 'R' | 'I' })),
    xmlInfo: form.xmlInfo,
    ...(timeZone ? { timeZone } : {}),
  };
}

export function toPlanningView(form: PlanningForm): TPlanificationsScreenView {
  const timeZone = timeZonePayload(form);
  return {
    timeZone: form.timeZone,
    timeZoneOffset: timeZone?.value ?? form.timeZoneOffset,
    plannings: form.plannings.map((p) => ({ ...p })),
    xmlInfo: form.xmlInfo,
  };
}
