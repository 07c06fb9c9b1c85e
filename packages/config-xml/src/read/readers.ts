import {
  CONFIG_BLOCK_COUNT,
  LIBRE_ID,
  TERMINAL_FREE_NAME,
  type TCalendarEmployee,
  type TComplementView,
  type TConfigInfo,
  type TDataLists,
  type TEmployee,
  type TExclusion,
  type TExclusionType,
  type TExclusionsView,
  type TExternalCalendarsView,
  type TExternalLinksView,
  type TFamily,
  type TGlobalAuthorizations,
  type TLastSyncInfo,
  type TPlanificationsView,
  type TPlanningCounts,
  type TSourceView,
  type TSourcesView,
  type TSyncDataView,
  type TTerminalView,
  type TTerminalsView,
  type TDepot,
  type TAgendaItem,
} from '@synchro/contracts';
import type { ConfigDocument } from '../document.ts';
import type { ElementIndex } from '../xml/index.ts';
import { digitsOf, flagOf, intOf, nonEmptyOf, numberOf, secretOf, textOf } from './ix-values.ts';
import { isTrue } from './values.ts';

/** The first root child named `name` (-1 when absent). */
function sectionOf(ix: ElementIndex, name: string): number {
  return ix.child(0, name);
}

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
  const employees: TCalendarEmployee[] = [
    ...employeesOf(ix, ix.child(data, 'CMB_SALARIES'), 'SALARIES').map((e) => ({
      ...e,
      kind: 'salarie' as const,
    })),
    ...employeesOf(ix, ix.child(data, 'CMB_TECHNICIENS'), 'TECHNICIENS').map((e) => ({
      ...e,
      kind: 'technicien' as const,
    })),
  ];
  return {
    agendaType: textOf(ix, agenda, 'Type_Agenda').trim(),
    mappings,
    employees,
    agendas: agendasOf(ix, data),
  };
}

// ---------------------------------------------------------------------------------------------
// Data lists

function employeesOf(ix: ElementIndex, list: number, item: string): TEmployee[] {
  const out: TEmployee[] = [];
  for (const e of ix.children(list, item)) {
    const IDInterne = textOf(ix, e, 'IDInterne').trim();
    if (IDInterne === '') continue;
    out.push({ IDInterne, Nom: textOf(ix, e, 'Nom'), Prenom: textOf(ix, e, 'Prenom') });
  }
  return out;
}

function depotsOf(ix: ElementIndex, data: number): TDepot[] {
  const out: TDepot[] = [];
  for (const d of ix.children(ix.child(data, 'CMB_STOCK_DEPOT'), 'DEPOT')) {
    const IDInterne = textOf(ix, d, 'IDInterne').trim();
    if (IDInterne === '') continue;
    out.push({ IDInterne, Code: textOf(ix, d, 'Code'), Libelle: textOf(ix, d, 'Libelle') });
  }
  return out;
}

function agendasOf(ix: ElementIndex, data: number): TAgendaItem[] {
  const out: TAgendaItem[] = [];
  for (const a of ix.children(ix.child(data, 'CMB_AGENDAS'), 'AGENDA')) {
    const ID = textOf(ix, a, 'ID').trim();
    if (ID === '') continue;
    out.push({ ID, Libelle: textOf(ix, a, 'Libelle') });
  }
  return out;
}

/**
 * A family list (CMB_FAMILLEARTICLE...): one row per family or sub-family, with IDFamille and
 * LibelleFamille for the family and IDInterne and Libelle for the sub-family (empty on a row for
 * the family alone). Either id may already be written `family|sub`. Families are listed in order
 * of first appearance, each with its sub-families.
 */
function familiesOf(ix: ElementIndex, list: number, item: string): TFamily[] {
  const families = new Map<string, TFamily>();
  const subSeen = new Set<string>();
  for (const row of ix.children(list, item)) {
    let fam = textOf(ix, row, 'IDFamille').trim();
    let sub = textOf(ix, row, 'IDInterne').trim();
    if (fam.includes('|')) {
      const [f, s] = fam.split('|', 2) as [string, string];
      fam = f;
      if (sub === '') sub = s;
    }
    if (sub.includes('|')) {
      const [f, s] = sub.split('|', 2) as [string, string];
      if (fam === '') fam = f;
      sub = s;
    }
    if (fam === '') continue;
    let family = families.get(fam);
    if (!family) {
      family = { id: `${fam}|`, libelle: textOf(ix, row, 'LibelleFamille'), subFamilies: [] };
      families.set(fam, family);
    } else if (family.libelle === '') family.libelle = textOf(ix, row, 'LibelleFamille');
    if (sub !== '') {
      const id = `${fam}|${sub}`;
      if (!subSeen.has(id)) {
        subSeen.add(id);
        family.subFamilies.push({ id, libelle: textOf(ix, row, 'Libelle') });
      }
    }
  }
  return [...families.values()];
}

export function readDataLists(doc: ConfigDocument): TDataLists {
  const ix = doc.index;
  const data = sectionOf(ix, 'Data');
  return {
    salaries: employeesOf(ix, ix.child(data, 'CMB_SALARIES'), 'SALARIES'),
    techniciens: employeesOf(ix, ix.child(data, 'CMB_TECHNICIENS'), 'TECHNICIENS'),
    agendas: agendasOf(ix, data),
    depots: depotsOf(ix, data),
    famillesArticles: familiesOf(ix, ix.child(data, 'CMB_FAMILLEARTICLE'), 'FAMILLEARTICLE'),
    famillesClients: familiesOf(ix, ix.child(data, 'CMB_FAMILLECLIENT'), 'FAMILLECLIENT'),
    famillesFournisseurs: familiesOf(ix, ix.child(data, 'CMB_FAMILLEFOURNISSEUR'), 'FAMILLEFOURNISSEUR'),
  };
}

// ---------------------------------------------------------------------------------------------
// Authorisations

/**
 * The global feature list: Data/Autorisations/Autorisation (ID, Libelle). Documents without it
 * (the fixture has none) get the union of the terminals' Autorisation entries, in order of first
 * appearance.
 */
export function readGlobalAuthorizations(doc: ConfigDocument): TGlobalAuthorizations {
  const ix = doc.index;
  const seen = new Set<string>();
  const authorizations: { ID: string; Libelle: string }[] = [];
  const add = (a: number): void => {
    const ID = textOf(ix, a, 'ID').trim();
    if (ID === '' || seen.has(ID)) return;
    seen.add(ID);
    authorizations.push({ ID, Libelle: textOf(ix, a, 'Libelle') });
  };
  for (const a of ix.children(ix.path(sectionOf(ix, 'Data'), 'Autorisations'), 'Autorisation')) add(a);
  if (authorizations.length > 0) return { authorizations, from: 'data' };
  for (const t of ix.children(sectionOf(ix, 'Terminaux'), 'Terminal')) {
    for (const a of ix.children(ix.child(t, 'Autorisations'), 'Autorisation')) add(a);
  }
  return { authorizations, from: 'terminals' };
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

/**
 * Donnees_A_Synchroniser/Donnee. CanHaveHistory comes from ElementsSync (Element of the same
 * Code with Histo 1); without an ElementsSync list (the fixture has none), an item can have
 * history when it already has one (Histo above 0).
 */
export function readSyncData(doc: ConfigDocument): TSyncDataView {
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
      CanHaveHistory: can ? (can.get(Reference) ?? false) : Histo > 0,
    };
  });
  return { syncData };
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
    googleApiKey: textOf(ix, s, 'APIKey_Google'),
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

// ---------------------------------------------------------------------------------------------
// Terminaux

/** Autorise value as the view shows it: 1, -1, or 0 for anything else. */
export function autoriseValue(v: string | null): -1 | 0 | 1 {
  const t = (v ?? '').trim();
  return t === '1' ? 1 : t === '-1' ? -1 : 0;
}

function terminalFrom(
  ix: ElementIndex,
  t: number,
  xmlIndex: number,
  displayName: string,
  global: { ID: string; Libelle: string }[],
): TTerminalView {
  const filtres = ix.child(t, 'Filtres');
  const ID_Tablette = textOf(ix, t, 'ID_Tablette').trim();
  const ID_Smartphone = textOf(ix, t, 'ID_Smartphone').trim();
  const values = new Map<string, -1 | 0 | 1>();
  for (const a of ix.children(ix.child(t, 'Autorisations'), 'Autorisation')) {
    const id = textOf(ix, a, 'ID').trim();
    if (id !== '' && !values.has(id)) values.set(id, autoriseValue(ix.childValue(a, 'Autorise')));
  }
  const commerciaux = [];
  for (const c of ix.children(ix.child(filtres, 'Commerciaux'), 'Commercial')) {
    const IDInterne = textOf(ix, c, 'IDInterne').trim();
    if (IDInterne !== '') commerciaux.push({ IDInterne, Libelle: textOf(ix, c, 'Libelle') });
  }
  return {
    xmlIndex,
    Nom: displayName,
    ID_Tablette,
    ID_Smartphone,
    declared: ID_Tablette !== '' || ID_Smartphone !== '',
    technicienId: textOf(ix, ix.path(filtres, 'Techniciens/Technicien'), 'IDInterne').trim(),
    depotId: textOf(ix, ix.path(filtres, 'Depots/Depot'), 'IDInterne').trim(),
    commerciaux,
    authorizations: global.map((g) => ({ ID: g.ID, Libelle: g.Libelle, Autorise: values.get(g.ID) ?? 0 })),
  };
}

/** Terminaux/Terminal as the parsed entities of spec §3. */
export function readTerminals(doc: ConfigDocument): TTerminalsView {
  const ix = doc.index;
  const list = ix.children(sectionOf(ix, 'Terminaux'), 'Terminal');
  const used = new Set<string>();
  const names = list.map((t) => {
    const name = textOf(ix, t, 'Nom');
    const key = name.trim();
    if (key === '' || used.has(key)) return TERMINAL_FREE_NAME;
    used.add(key);
    return name;
  });
  const global = readGlobalAuthorizations(doc).authorizations;
  return { terminals: list.map((t, i) => terminalFrom(ix, t, i, names[i] as string, global)) };
}
