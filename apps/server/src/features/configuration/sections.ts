import type {
  TConfigSectionKey,
  TPlanningsList,
  TSaveableSectionKey,
  TSectionPayloadNormal,
  TSectionView,
} from '@synchro/contracts';
import {
  editComplement,
  editExclusions,
  editExternalCalendars,
  editExternalLinks,
  editPlanifications,
  editSources,
  editSyncData,
  editTerminal,
  readComplement,
  readDataLists,
  readExclusions,
  readExternalCalendars,
  readExternalLinks,
  readGlobalAuthorizations,
  readInfo,
  readPlanifications,
  readSources,
  readSyncData,
  readTerminals,
  type ConfigDocument,
  type SectionName,
} from '@synchro/config-xml';
import type { Queryable } from '../../db/types.ts';
import { setInstallationTimeZone, type Installation } from '../../domain/installations.ts';

/** What a view reads besides the document: kept by the server (sync-data-history.ts). */
export interface SectionReadContext {
  /** The data to sync that had a history in an earlier version. */
  hadHistory: ReadonlySet<string>;
}

/**
 * What the server does for each section of the registry (CONFIG_SECTIONS of
 * @synchro/contracts, which gives the paths, schemas and messages): the reader behind its GET
 * view and the edit behind its save. Typed by key, so a section added to the registry does not
 * compile until it has both here, and a reader must give the view its contract declares.
 */
export const SECTION_VIEWS: {
  [K in TConfigSectionKey]: (doc: ConfigDocument, context: SectionReadContext) => TSectionView<K>;
} = {
  sources: readSources,
  externalLinks: readExternalLinks,
  externalCalendars: readExternalCalendars,
  syncData: (doc, { hadHistory }) => readSyncData(doc, hadHistory),
  exclusions: readExclusions,
  complement: readComplement,
  planifications: (doc) => {
    const { exe, serial } = readInfo(doc);
    return { ...readPlanifications(doc), xmlInfo: { exe, serial } };
  },
  terminals: (doc) => ({ ...readTerminals(doc), authorizations: readGlobalAuthorizations(doc) }),
  dataLists: readDataLists,
};

export interface SectionSaver<K extends TSaveableSectionKey> {
  /** The config-xml edit: newest document and validated payload → new text. */
  edit: (doc: ConfigDocument, payload: TSectionPayloadNormal<K>) => string;
  /**
   * The sections the edit opens or reads: their size and the body's bound the edit's time, and a
   * big edit runs in a worker thread (service.ts).
   */
  reads: readonly SectionName[];
  /**
   * The body may be big (BODY_LIMITS): the route takes it as bytes, and a big one is read, checked
   * and applied in a worker thread, never on the request thread. Only for a save whose payload
   * the server needs for nothing else (no `index`, no `alsoWrite`).
   */
  bigBody?: true;
  /** The terminal a save is about (compared alone on a stale If-Match). */
  index?: (payload: TSectionPayloadNormal<K>) => number;
  /** Another write of the same save, in its transaction. */
  alsoWrite?: (tx: Queryable, installation: Installation, payload: TSectionPayloadNormal<K>) => Promise<void>;
  /** Failures also carry `error` (= `message`): the earlier console's schedule screen reads it. */
  errorField?: true;
}

export const SECTION_SAVERS: { [K in TSaveableSectionKey]: SectionSaver<K> } = {
  sources: { edit: editSources, reads: ['Sources'] },
  externalLinks: { edit: editExternalLinks, reads: ['Liaisons_Externes'] },
  externalCalendars: { edit: editExternalCalendars, reads: ['Liaisons_Externes'] },
  syncData: { edit: editSyncData, reads: ['Donnees_A_Synchroniser'] },
  // Data: the families' labels, for entries sent without one.
  exclusions: { edit: editExclusions, reads: ['Exclusions', 'Data'], bigBody: true },
  complement: { edit: editComplement, reads: ['Complement'] },
  planifications: {
    edit: editPlanifications,
    reads: ['Planifications'],
    // The installation keeps the chosen zone too (docs/spec-notes.md, Saves of the settings screens).
    alsoWrite: async (tx, installation, p) => {
      if (p.timeZone) await setInstallationTimeZone(tx, installation, p.timeZone.label.trim());
    },
    errorField: true,
  },
  terminals: {
    edit: (doc, p) => editTerminal(doc, p.terminalIndex, p.terminal),
    // Data: the technicians', depots' and employees' lists.
    reads: ['Terminaux', 'Data'],
    index: (p) => p.terminalIndex,
  },
};

/** GET /api/plannings: the schedule as the earlier server listed it, `Jour` as text. */
export function legacyPlannings(doc: ConfigDocument): TPlanningsList {
  return readPlanifications(doc).plannings.map((p) => ({
    Jour: String(p.day),
    Heure: p.time,
    Ordre: p.type,
  }));
}
