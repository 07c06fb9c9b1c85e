import { z } from 'zod';
import { zConfigLine } from './payload.ts';

/** Value of a free (unassigned) employee or agenda in a mapping. */
export const LIBRE_ID = '-1';

export const AGENDA_TYPE_MESSAGE =
  "Type d'agenda attendu : '' (pas d'agenda externe), 'Google' ou 'Microsoft'";

export const ZAgendaType = z.enum(['', 'Google', 'Microsoft'], { error: AGENDA_TYPE_MESSAGE });

export const ZCalendarMapping = z.object({
  /** IDInterne of a salarié or technicien; LIBRE_ID ('-1') when free. */
  ID_Salarie: z.string(),
  /** ID of an agenda; LIBRE_ID ('-1') when free. */
  ID_Agenda: z.string(),
});
export type TCalendarMapping = z.infer<typeof ZCalendarMapping>;

export const ZEmployee = z.object({ IDInterne: z.string(), Nom: z.string(), Prenom: z.string() });
export type TEmployee = z.infer<typeof ZEmployee>;

export const ZCalendarEmployee = ZEmployee.extend({ kind: z.enum(['salarie', 'technicien']) });
export type TCalendarEmployee = z.infer<typeof ZCalendarEmployee>;

export const ZAgendaItem = z.object({ ID: z.string(), Libelle: z.string() });
export type TAgendaItem = z.infer<typeof ZAgendaItem>;

export const ZExternalCalendarsView = z.object({
  agendaType: z.string(),
  mappings: z.array(ZCalendarMapping),
  /** Salariés then techniciens (Data lists). */
  employees: z.array(ZCalendarEmployee),
  agendas: z.array(ZAgendaItem),
});
export type TExternalCalendarsView = z.infer<typeof ZExternalCalendarsView>;

/** What the earlier console sent for « no agenda type » and for a free (Libre) row. */
export const LEGACY_EMPTY = 'empty';

const zMappingId = zConfigLine(500).transform((v) =>
  v.trim() === '' || v.trim() === LEGACY_EMPTY ? LIBRE_ID : v,
);

/**
 * POST /api/database/external-calendars. The mappings replace the Correspondance rows. '' (or
 * "empty") means free; agendaType "empty" means none (''). "empty" is never written.
 */
export const ZExternalCalendarsPayload = z.object({
  /**
   * A ZAgendaType ("empty" is ''), or the value stored when it is another (the screen offers it as
   * it is, so that saving the rows does not lose it): the edit refuses any other with
   * AGENDA_TYPE_MESSAGE, as it alone knows the stored value.
   */
  agendaType: zConfigLine(100).transform((v) => (v === LEGACY_EMPTY ? '' : v)),
  mappings: z
    .array(z.object({ ID_Salarie: zMappingId, ID_Agenda: zMappingId }))
    .max(2000, 'Au plus 2000 lignes'),
});
export type TExternalCalendarsPayload = z.input<typeof ZExternalCalendarsPayload>;
