import { z } from 'zod';
import {
  ZComplementView,
  ZExternalLinksView,
  ZSourcesView,
  ZExternalCalendarsView,
  ZSyncDataView,
  ZExclusionsView,
  ZPlanificationsView,
  ZTerminalsView,
  ZDataLists,
  ZGlobalAuthorizations,
} from './config-sections.ts';
import { ZConfigDiagnostic, ZRepairChange } from './diagnostic.ts';

/**
 * Reading a section: GET /api/config/<section> (CONFIG_SECTIONS[key].getPath) answers the typed
 * view of the newest stored configuration and its version. The version also comes as
 * `ETag: "<version>"`. A save may send it back as `If-Match: "<version>"`: when that section was
 * changed since, the save answers 409 (ZApiError, code 'conflict') and changes nothing. Without
 * If-Match (the legacy API), the save changes only its section of the newest version.
 */
export function zVersioned<T extends z.ZodType>(data: T) {
  return z.object({ version: z.number().int().nonnegative(), data });
}

export const ZSourcesResponse = zVersioned(ZSourcesView);
export type TSourcesResponse = z.infer<typeof ZSourcesResponse>;
export const ZExternalLinksResponse = zVersioned(ZExternalLinksView);
export type TExternalLinksResponse = z.infer<typeof ZExternalLinksResponse>;
export const ZExternalCalendarsResponse = zVersioned(ZExternalCalendarsView);
export type TExternalCalendarsResponse = z.infer<typeof ZExternalCalendarsResponse>;
export const ZSyncDataResponse = zVersioned(ZSyncDataView);
export type TSyncDataResponse = z.infer<typeof ZSyncDataResponse>;
export const ZExclusionsResponse = zVersioned(ZExclusionsView);
export type TExclusionsResponse = z.infer<typeof ZExclusionsResponse>;
export const ZComplementResponse = zVersioned(ZComplementView);
export type TComplementResponse = z.infer<typeof ZComplementResponse>;
/** Info/Exe and Info/Serial, which the schedule save sends back as `xmlInfo` (POST /api/plannings). */
export const ZXmlInfo = z.object({ exe: z.string(), serial: z.string() });
export type TXmlInfo = z.infer<typeof ZXmlInfo>;
export const ZPlanificationsScreenView = ZPlanificationsView.extend({ xmlInfo: ZXmlInfo });
export type TPlanificationsScreenView = z.infer<typeof ZPlanificationsScreenView>;
export const ZPlanificationsResponse = zVersioned(ZPlanificationsScreenView);
export type TPlanificationsResponse = z.infer<typeof ZPlanificationsResponse>;

/**
 * GET /api/plannings: the earlier console's schedule list `[{Jour, Heure, Ordre}]` (legacy names),
 * `Jour` as text ('1' … '8') as the earlier server gave it. The Planification screen reads
 * the typed view (CONFIG_SECTIONS.planifications) instead.
 */
export const PLANNINGS_LIST_PATH = '/api/plannings';
export const ZPlanningsList = z.array(z.object({ Jour: z.string(), Heure: z.string(), Ordre: z.string() }));
export type TPlanningsList = z.infer<typeof ZPlanningsList>;
export const ZTerminalsResponse = zVersioned(
  ZTerminalsView.extend({ authorizations: ZGlobalAuthorizations }),
);
export type TTerminalsResponse = z.infer<typeof ZTerminalsResponse>;
export const ZDataListsResponse = zVersioned(ZDataLists);
export type TDataListsResponse = z.infer<typeof ZDataListsResponse>;

/**
 * Answer of every section save (POST /api/database/sources, /external-links, /external-calendars,
 * /complement, /exclusions, POST /api/sync-data/save, POST /api/plannings, PATCH
 * /api/config/terminal): the French success message (CONFIG_SECTIONS[key].save.success) and the
 * new version.
 */
export const ZSaveResponse = z.object({ message: z.string(), version: z.number().int().positive() });
export type TSaveResponse = z.infer<typeof ZSaveResponse>;

export const CONFLICT_MESSAGE =
  "La configuration a été modifiée depuis l'ouverture de cet écran (par le connecteur ou un autre onglet). Rechargez la page pour voir la dernière version, puis refaites vos modifications.";

/** GET /api/debug/xml-status: the diagnostic (docs/spec-notes.md, Diagnostic) of the signed-in installation. */
export const ZXmlStatusResponse = ZConfigDiagnostic;
export type TXmlStatusResponse = z.infer<typeof ZXmlStatusResponse>;

/**
 * POST /api/debug/repair-xml (JSON body `{}`): repairs the stored configuration. The text before
 * the repair stays in the version history (the backup, `backupVersion`); the repaired text becomes
 * a new version (author 'repair'). When nothing needs repairing, `changes` is empty and no version
 * is written (`version` = `backupVersion`). 422 (ZApiError, French) when the document cannot be
 * repaired without guessing; nothing is changed then.
 */
export const ZRepairResponse = z.object({
  changes: z.array(ZRepairChange),
  backupVersion: z.number().int().positive(),
  version: z.number().int().positive(),
  diagnostic: ZConfigDiagnostic,
});
export type TRepairResponse = z.infer<typeof ZRepairResponse>;
