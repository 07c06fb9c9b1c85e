import {
  CONFIG_BLOCK_COUNT,
  LIBRE_ID,
  type TCalendarEmployee,
  type TComplementView,
  type TConfigInfo,
  type TExclusion,
  type TExclusionType,
  type TExclusionsView,
  type TExternalCalendarsView,
  type TExternalLinksView,
  type TLastSyncInfo,
  type TPlanificationsView,
  type TPlanningCounts,
  type TSourceView,
  type TSourcesView,
  type TSyncDataView,
} from '@synchro/contracts';
import type { ConfigDocument } from '../document.ts';
import type { ElementIndex } from '../xml/index.ts';
import { agendasOf, storedEmployees } from './data-lists.ts';
import {
  digitsOf,
  flagOf,
  intOf,
  nonEmptyOf,
  numberOf,
  rootSection as sectionOf,
  secretOf,
  textOf,
} from './ix-values.ts';
import { isTrue } from './values.ts';

// ---------------------------------------------------------------------------------------------
// Info, DerSynchro

export function readInfo(doc: ConfigDocument): TConfigInfo {
  const ix = doc.index;
  const s = sectionOf(ix, 'Info');
  return {
    exe: textOf(ix, s, 'Exe'),
    serial: textOf(ix, s, 'Serial'),
    automateInstall: intOf(ix, s, 'NuxiAutomateInstall'),
    automateLabel: textOf(ix, s, 'NuxiAutomateLibelle'),
    configUpdatedAt: digitsOf(ix, s, 'DateMAJConfig'),
    connectorVersion: nonEmptyOf(ix, s, 'VersionConnecteur'),
  };
}

export function readLastSync(doc: ConfigDocument): TLastSyncInfo {
  const ix = doc.index;
  const s = sectionOf(ix, 'DerSynchro');
  return {
    dateHeure: digitsOf(ix, s, 'DateHeure'),
    type: nonEmptyOf(ix, s, 'TypeDeSync'),
    duration: nonEmptyOf(ix, s, 'Duree'),
    durationAlert: flagOf(ix, s, 'DureeAlerte'),
    records: numberOf(ix, s, 'NbEnreg'),
    speed: numberOf(ix, s, 'Vitesse'),
    volume: nonEmptyOf(ix, s, 'Taille'),
    volumeAlert: flagOf(ix, s, 'TailleAlerte'),
  };
}

// ---------------------------------------------------------------------------------------------
// Sources, Liaisons externes

function emptySource(): TSourceView {
  return {
    Provider: '',
    Serveur: '',
    Nom_BDD: '',
    Lecture_Seule: false,
    Utilisateur: '',
    MDP: '',
    Status: null,
    StatusLibelle: '',
  };
}

export function readSources(doc: ConfigDocument): TSourcesView {
  const ix = doc.index;
  const sources: TSourceView[] = ix.children(sectionOf(ix, 'Sources'), 'Source').map((s) => ({
    Provider: textOf(ix, s, 'Provider'),
    Serveur: textOf(ix, s, 'Serveur'),
    Nom_BDD: textOf(ix, s, 'Nom_BDD'),
    Lecture_Seule: flagOf(ix, s, 'Lecture_Seule'),
    Utilisateur: textOf(ix, s, 'Utilisateur'),
    MDP: secretOf(ix, s, 'MDP'),
    Status: intOf(ix, s, 'Status'),
    StatusLibelle: textOf(ix, s, 'StatusLibelle'),
  }));
  while (sources.length < CONFIG_BLOCK_COUNT) sources.push(emptySource());
  return { sources };
}

export function readExternalLinks(doc: ConfigDocument): TExternalLinksView {
  const ix = doc.index;
  const s = sectionOf(ix, 'Liaisons_Externes');
  const Liaisons = ix.children(ix.child(s, 'Liaisons'), 'Liaison').map((l) => ({
    Logiciel: textOf(ix, l, 'Logiciel'),
    Config: textOf(ix, l, 'Config'),
    Utilisateur: textOf(ix, l, 'Utilisateur'),
    MDP: secretOf(ix, l, 'MDP'),
  }));
  while (Liaisons.length < CONFIG_BLOCK_COUNT)
    Liaisons.push({ Logiciel: '', Config: '', Utilisateur: '', MDP: '' });
  return {
    Dossier_Import: textOf(ix, s, 'Dossier_Import'),
    Dossier_Export: textOf(ix, s, 'Dossier_Export'),
    Liaisons,
  };
}

/** A mapping id as the view shows it: LIBRE_ID ('-1') for a free slot, whether stored '-1' or empty. */
export function mappingId(v: string | null): string {
  const t = (v ?? '').trim();
  return t === '' || t === LIBRE_ID ? LIBRE_ID : t;
}

export function readExternalCalendars(doc: ConfigDocument): TExternalCalendarsView {
  const ix = doc.index;
  const agenda = ix.child(sectionOf(ix, 'Liaisons_Externes'), 'Agenda');
  const mappings = ix.children(ix.child(agenda, 'Correspondances'), 'Correspondance').map((c) => ({
    ID_Salarie: mappingId(ix.childValue(c, 'ID_Salarie')),
    ID_Agenda: mappingId(ix.childValue(c, 'ID_Agenda')),
  }));
  const data = sectionOf(ix, 'Data');
  // Objects written out (an object spread per employee cost more than reading the employee).
  const employees: TCalendarEmployee[] = [];
  for (const e of storedEmployees(doc, 'SALARIES'))
    employees.push({ IDInterne: e.IDInterne, Nom: e.Nom, Prenom: e.Prenom, kind: 'salarie' });
  for (const e of storedEmployees(doc, 'TECHNICIENS'))
    employees.push({ IDInterne: e.IDInterne, Nom: e.Nom, Prenom: e.Prenom, kind: 'technicien' });
  return {
    agendaType: textOf(ix, agenda, 'Type_Agenda').trim(),
    mappings,
    employees,
    agendas: agendasOf(ix, data),
  };
}

// ---------------------------------------------------------------------------------------------
// Données à synchroniser

/** ElementsSync/Element (Code, Histo), at the top level or inside Data. */
function elementsSync(ix: ElementIndex): Map<string, boolean> | null {
  let list = sectionOf(ix, 'ElementsSync');
  if (list < 0) list = ix.child(sectionOf(ix, 'Data'), 'ElementsSync');
  if (list < 0) return null;
  const map = new Map<string, boolean>();
  for (const e of ix.children(list, 'Element')) {
    const code = textOf(ix, e, 'Code').trim();
    if (code !== '') map.set(code, isTrue(ix.childValue(e, 'Histo')));
  }
  return map;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Donnees_A_Synchroniser/Donnee. CanHaveHistory comes from ElementsSync (Element of the same
 * Code with Histo 1); without an ElementsSync list (the fixture has none), an item can have
 * history when it has one (Histo above 0) or had one in an earlier version (`hadHistory`, the
 * references the server kept from referencesWithHistory): a history cleared to 0 and saved can
 * be set again.
 */
export function readSyncData(doc: ConfigDocument, hadHistory: ReadonlySet<string> = NONE): TSyncDataView {
  const ix = doc.index;
  const can = elementsSync(ix);
  const syncData = ix.children(sectionOf(ix, 'Donnees_A_Synchroniser'), 'Donnee').map((d) => {
    const Reference = textOf(ix, d, 'Reference').trim();
    const histo = intOf(ix, d, 'Histo');
    const Histo = histo === null || histo < 0 ? 0 : histo;
    return {
      Reference,
      Complete: flagOf(ix, d, 'Complete'),
      Libelle: textOf(ix, d, 'Libelle'),
      Histo,
      CanHaveHistory: can ? (can.get(Reference) ?? false) : Histo > 0 || hadHistory.has(Reference),
    };
  });
  return { syncData };
}

/** The references of the items whose history is above 0: what readSyncData's `hadHistory` holds. */
export function referencesWithHistory(doc: ConfigDocument): string[] {
  return readSyncData(doc)
    .syncData.filter((d) => d.Histo > 0 && d.Reference !== '')
    .map((d) => d.Reference);
}

// ---------------------------------------------------------------------------------------------
// Exclusions

export const EXCLUSION_TYPES: readonly TExclusionType[] = ['ItemFamily', 'CustomerFamily', 'SupplierFamily'];

/** An exclusion id in its normal form: `family|` or `family|sub`. */
export function exclusionId(v: string): string {
  const t = v.trim();
  return t === '' || t.includes('|') ? t : `${t}|`;
}

/**
 * The family exclusions (ItemFamily, CustomerFamily, SupplierFamily). Other types
 * (NuxiSavOnLine) are not the console's and are not reported.
 */
export function readExclusions(doc: ConfigDocument): TExclusionsView {
  const ix = doc.index;
  const exclusions: TExclusion[] = [];
  for (const ex of ix.children(sectionOf(ix, 'Exclusions'), 'Exclusion')) {
    const type = textOf(ix, ex, 'Type').trim() as TExclusionType;
    if (!EXCLUSION_TYPES.includes(type)) continue;
    for (const v of ix.children(ix.child(ex, 'Valeurs'), 'Valeur')) {
      const id = exclusionId(textOf(ix, v, 'IDInterne') || textOf(ix, v, 'Code'));
      if (id === '') continue;
      exclusions.push({ id, libelle: textOf(ix, v, 'Libelle'), type });
    }
  }
  return { exclusions };
}

// ---------------------------------------------------------------------------------------------
// Complément

export function readComplement(doc: ConfigDocument): TComplementView {
  const ix = doc.index;
  const s = sectionOf(ix, 'Complement');
  const mail = ix.child(s, 'Mail_Rapport');
  const drive = textOf(ix, ix.child(s, 'Drive'), 'Type_Drive').trim();
  return {
    googleApiKey: secretOf(ix, s, 'APIKey_Google'),
    driveType: drive === '' ? 'none' : drive,
    mailRapport: {
      envoyerRapport: flagOf(ix, mail, 'Envoyer_Rapport'),
      mailDestinataire: textOf(ix, mail, 'MailDestinataire'),
      notifErr: flagOf(ix, mail, 'NotifErr'),
      notifInf: flagOf(ix, mail, 'NotifInf'),
      notifImp: flagOf(ix, mail, 'NotifImp'),
      globaliserEnregImport: flagOf(ix, mail, 'Globaliser_Enreg_Import'),
    },
    scriptComplementaire: textOf(ix, s, 'ScriptComplementaire').replace(/\r\n?/g, '\n'),
  };
}

// ---------------------------------------------------------------------------------------------
// Planification

export function readPlanifications(doc: ConfigDocument): TPlanificationsView {
  const ix = doc.index;
  const s = sectionOf(ix, 'Planifications');
  const plannings = ix.children(s, 'Planning').map((p) => ({
    day: intOf(ix, p, 'Jour') ?? 0,
    time: textOf(ix, p, 'Heure').trim(),
    type: textOf(ix, p, 'Ordre').trim().toUpperCase(),
  }));
  return {
    timeZone: textOf(ix, s, 'FuseauHoraire').trim(),
    timeZoneOffset: textOf(ix, s, 'FuseauHoraireValeur').trim(),
    plannings,
  };
}

/** Number of schedules of each type (Planning/Ordre C, R, I). */
export function countPlannings(doc: ConfigDocument): TPlanningCounts {
  const ix = doc.index;
  const counts = { C: 0, R: 0, I: 0 };
  for (const p of ix.children(sectionOf(ix, 'Planifications'), 'Planning')) {
    const o = textOf(ix, p, 'Ordre').trim().toUpperCase();
    if (o === 'C' || o === 'R' || o === 'I') counts[o]++;
  }
  return counts;
}
