import { z } from 'zod';
import { ZAgendaItem, ZEmployee } from './external-calendars.ts';

export const ZDepot = z.object({ IDInterne: z.string(), Code: z.string(), Libelle: z.string() });
export type TDepot = z.infer<typeof ZDepot>;

export const ZSubFamily = z.object({
  /** `family|sub`. */
  id: z.string(),
  libelle: z.string(),
});
export const ZFamily = z.object({
  /** `family|` (trailing bar: the whole family). */
  id: z.string(),
  libelle: z.string(),
  subFamilies: z.array(ZSubFamily),
});
export type TFamily = z.infer<typeof ZFamily>;

export const ZDataLists = z.object({
  salaries: z.array(ZEmployee),
  techniciens: z.array(ZEmployee),
  agendas: z.array(ZAgendaItem),
  depots: z.array(ZDepot),
  famillesArticles: z.array(ZFamily),
  famillesClients: z.array(ZFamily),
  famillesFournisseurs: z.array(ZFamily),
});
export type TDataLists = z.infer<typeof ZDataLists>;

export const ZGlobalAuthorization = z.object({ ID: z.string(), Libelle: z.string() });
export const ZGlobalAuthorizations = z.object({
  authorizations: z.array(ZGlobalAuthorization),
  /** 'data' when read from Data/Autorisations, 'terminals' when gathered from the terminals. */
  from: z.enum(['data', 'terminals']),
});
export type TGlobalAuthorizations = z.infer<typeof ZGlobalAuthorizations>;
