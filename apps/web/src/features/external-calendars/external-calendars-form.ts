import type { TCalendarMapping, TExternalCalendarsPayload, TExternalCalendarsView } from '@synchro/contracts';
import { withStored } from '../../forms/with-stored.ts';

/** A free employee or agenda: -1 or empty means libre (docs/spec-notes.md, Web: Agendas externes). */
export const LIBRE = '-1';
export const LIBRE_LABEL = 'Libre';

/** Radix Select cannot hold an empty value: 'Pas d'agenda Externe' ('') uses this one. */
export const NO_AGENDA_TYPE = '__aucun__';

/** Agenda type, display → stored value (same place). */
export const AGENDA_TYPE_OPTIONS = [
  { label: "Pas d'agenda Externe", value: '' },
  { label: 'Compte Gmail Google Agenda', value: 'Google' },
  { label: 'Compte Office 365 Outlook', value: 'Microsoft' },
] as const;

export const toTypeSelectValue = (type: string) => (type === '' ? NO_AGENDA_TYPE : type);
export const fromTypeSelectValue = (value: string) => (value === NO_AGENDA_TYPE ? '' : value);

/** The options of the agenda type select; a stored value outside the list is offered as it is. */
export function agendaTypeOptions(current: string): { label: string; value: string }[] {
  const options = AGENDA_TYPE_OPTIONS.map((o) => ({ label: o.label, value: toTypeSelectValue(o.value) }));
  return current === '' ? options : withStored(options, current);
}

export interface ExternalCalendarsForm {
  agendaType: string;
  mappings: TCalendarMapping[];
}

/** Options: its first ';' field is the number of authorised terminals (same place). */
export function authorisedTerminals(options: string | undefined): number {
  const first = (options ?? '').split(';')[0]?.trim() ?? '';
  return /^\d+$/.test(first) ? Math.min(Number(first), 2000) : 0;
}

const free = (id: string) => (id.trim() === '' ? LIBRE : id);

/** The rows: the stored ones, padded with free rows up to one per authorised terminal. */
export function toExternalCalendarsForm(
  view: TExternalCalendarsView,
  minRows: number,
): ExternalCalendarsForm {
  const mappings = view.mappings.map((m) => ({
    ID_Salarie: free(m.ID_Salarie),
    ID_Agenda: free(m.ID_Agenda),
  }));
  while (mappings.length < minRows) mappings.push({ ID_Salarie: LIBRE, ID_Agenda: LIBRE });
  return { agendaType: view.agendaType, mappings };
}

/** POST /api/database/external-calendars. */
export const toExternalCalendarsPayload = (form: ExternalCalendarsForm): TExternalCalendarsPayload => ({
  agendaType: form.agendaType as TExternalCalendarsPayload['agendaType'],
  mappings: form.mappings.map((m) => ({ ID_Salarie: m.ID_Salarie, ID_Agenda: m.ID_Agenda })),
});

export const toExternalCalendarsView = (
  form: ExternalCalendarsForm,
  previous: TExternalCalendarsView,
): TExternalCalendarsView => ({
  ...previous,
  agendaType: form.agendaType,
  mappings: form.mappings.map((m) => ({ ...m })),
});

export interface Choice {
  value: string;
  label: string;
}

/** 'Libre' first, then the list; a stored id the list lacks is kept and shown as such. */
export function withLibre(list: Choice[], current: string): Choice[] {
  const options = [{ value: LIBRE, label: LIBRE_LABEL }, ...list];
  return current === LIBRE ? options : withStored(options, current);
}

/** Salariés then techniciens, 'Prénom NOM', technicians marked. */
export function employeeChoices(view: TExternalCalendarsView): Choice[] {
  const seen = new Set<string>();
  const choices: Choice[] = [];
  for (const e of view.employees) {
    if (e.IDInterne.trim() === '' || seen.has(e.IDInterne)) continue;
    seen.add(e.IDInterne);
    const name =
      [e.Prenom, e.Nom]
        .map((s) => s.trim())
        .filter(Boolean)
        .join(' ') || e.IDInterne;
    choices.push({ value: e.IDInterne, label: e.kind === 'technicien' ? `${name} (technicien)` : name });
  }
  return choices;
}

export function agendaChoices(view: TExternalCalendarsView): Choice[] {
  const seen = new Set<string>();
  return view.agendas
    .filter((a) => a.ID.trim() !== '' && !seen.has(a.ID) && seen.add(a.ID))
    .map((a) => ({ value: a.ID, label: a.Libelle.trim() || a.ID }));
}
