import type { z } from 'zod';
import {
  ZDataListsResponse,
  ZExclusionsResponse,
  ZExternalCalendarsResponse,
  ZExternalLinksResponse,
  ZComplementResponse,
  ZPlanificationsResponse,
  ZSourcesResponse,
  ZSyncDataResponse,
  ZTerminalsResponse,
} from './config-api.ts';
import {
  ZComplementPayload,
  ZExclusionsPayload,
  ZExternalCalendarsPayload,
  ZExternalLinksPayload,
  ZPlanificationsPayload,
  ZSourcesPayload,
  ZSyncDataPayload,
  ZTerminalPayload,
} from './config-sections.ts';

/**
 * The one registry of configuration sections. The server builds its GET and save routes from it;
 * the SPA's section editor reads its paths, schemas and messages from it. A section's view type
 * follows from its key (`TSectionView<'sources'>`).
 *
 * - `getPath`: GET answers `{version, data}` (`response`) with `ETag: "<version>"`.
 * - `save`: path and method of the save (docs/spec-notes.md, Saves of the settings screens), its
 *   payload schema, the edit it runs on the server (`edit`, one of config-xml's edit kinds) and
 *   the texts the spec gives (same place): success toast (`successTitle` + `success` as
 *   description when a title is given) and the default failure text (`failure`, shown under
 *   `failureTitle`, 'Erreur de sauvegarde' by default). `null` for a read-only view.
 */
/** The edits the server runs on a configuration, one per save (config-xml's `editScope`, `EDIT_SECTION`). */
export type TEditKind =
  | 'sources'
  | 'externalLinks'
  | 'externalCalendars'
  | 'syncData'
  | 'exclusions'
  | 'complement'
  | 'planifications'
  | 'terminal';

export interface ConfigSectionSave {
  path: string;
  method: 'POST' | 'PATCH';
  payload: z.ZodType;
  edit: TEditKind;
  success: string;
  successTitle?: string;
  failure: string;
  failureTitle?: string;
}

export interface ConfigSectionEntry {
  getPath: `/api/config/${string}`;
  response: z.ZodType<{ version: number; data: unknown }>;
  save: ConfigSectionSave | null;
}

export const SAVE_ERROR_TITLE = 'Erreur de sauvegarde';
const GENERIC_FAILURE = 'Une erreur est survenue lors de la sauvegarde';

export const CONFIG_SECTIONS = {
  sources: {
    getPath: '/api/config/sources',
    response: ZSourcesResponse,
    save: {
      path: '/api/database/sources',
      method: 'POST',
      payload: ZSourcesPayload,
      edit: 'sources',
      success: 'Les paramètres de connexion ont été sauvegardés',
      failure: 'Échec de la sauvegarde des sources de données',
    },
  },
  externalLinks: {
    getPath: '/api/config/external-links',
    response: ZExternalLinksResponse,
    save: {
      path: '/api/database/external-links',
      method: 'POST',
      payload: ZExternalLinksPayload,
      edit: 'externalLinks',
      success: 'Les liaisons externes ont été mises à jour avec succès.',
      failure: 'Échec de la sauvegarde des liaisons externes',
    },
  },
  externalCalendars: {
    getPath: '/api/config/external-calendars',
    response: ZExternalCalendarsResponse,
    save: {
      path: '/api/database/external-calendars',
      method: 'POST',
      payload: ZExternalCalendarsPayload,
      edit: 'externalCalendars',
      success: 'Les agendas externes ont été mis à jour avec succès.',
      failure: 'Échec de la sauvegarde des agendas externes',
    },
  },
  syncData: {
    getPath: '/api/config/sync-data',
    response: ZSyncDataResponse,
    save: {
      path: '/api/sync-data/save',
      method: 'POST',
      payload: ZSyncDataPayload,
      edit: 'syncData',
      success: 'Les données de synchronisation ont été sauvegardées',
      failure: GENERIC_FAILURE,
      failureTitle: 'Erreur',
    },
  },
  exclusions: {
    getPath: '/api/config/exclusions',
    response: ZExclusionsResponse,
    save: {
      path: '/api/database/exclusions',
      method: 'POST',
      payload: ZExclusionsPayload,
      edit: 'exclusions',
      success: 'Les exclusions ont été mises à jour.',
      failure: 'Échec de la sauvegarde des exclusions',
    },
  },
  complement: {
    getPath: '/api/config/complement',
    response: ZComplementResponse,
    save: {
      path: '/api/database/complement',
      method: 'POST',
      payload: ZComplementPayload,
      edit: 'complement',
      success: 'Les paramètres complémentaires ont été mis à jour.',
      failure: 'Échec de la sauvegarde des compléments',
    },
  },
  planifications: {
    getPath: '/api/config/planifications',
    response: ZPlanificationsResponse,
    save: {
      path: '/api/plannings',
      method: 'POST',
      payload: ZPlanificationsPayload,
      edit: 'planifications',
      success: 'Les planifications ont été sauvegardées avec succès',
      failure: 'Impossible de sauvegarder les planifications',
    },
  },
  terminals: {
    getPath: '/api/config/terminals',
    response: ZTerminalsResponse,
    save: {
      path: '/api/config/terminal',
      method: 'PATCH',
      payload: ZTerminalPayload,
      edit: 'terminal',
      successTitle: 'Succès',
      success: 'Les modifications ont été enregistrées avec succès',
      failure: GENERIC_FAILURE,
      failureTitle: 'Erreur',
    },
  },
  dataLists: {
    getPath: '/api/config/data-lists',
    response: ZDataListsResponse,
    save: null,
  },
} as const satisfies Record<string, ConfigSectionEntry>;

export type TConfigSectionKey = keyof typeof CONFIG_SECTIONS;
/** Sections that have a save. */
export type TSaveableSectionKey = {
  [K in TConfigSectionKey]: (typeof CONFIG_SECTIONS)[K]['save'] extends null ? never : K;
}[TConfigSectionKey];

/** `{version, data}` of a section's GET. */
export type TSectionResponse<K extends TConfigSectionKey> = z.output<(typeof CONFIG_SECTIONS)[K]['response']>;
/** The typed view of a section. */
export type TSectionView<K extends TConfigSectionKey> = TSectionResponse<K>['data'];
/** What a client sends to save a section (loose input forms accepted). */
export type TSectionPayload<K extends TSaveableSectionKey> = z.input<
  Extract<(typeof CONFIG_SECTIONS)[K]['save'], ConfigSectionSave>['payload']
>;
/** The payload once validated: the normal form the server's edit receives. */
export type TSectionPayloadNormal<K extends TSaveableSectionKey> = z.output<
  Extract<(typeof CONFIG_SECTIONS)[K]['save'], ConfigSectionSave>['payload']
>;

export const CONFIG_SECTION_KEYS = Object.keys(CONFIG_SECTIONS) as TConfigSectionKey[];
