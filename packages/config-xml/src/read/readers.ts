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
import { childNamed, childrenNamed, pathNamed, type XElement } from '../xml/tree.ts';
import {
  digitsOf,
  flagOf,
  intOf,
  isTrue,
  nonEmptyOf,
  numberOf,
  secretOf,
  textOf,
  valueOf,
} from './values.ts';

// ---------------------------------------------------------------------------------------------
// Info, DerSynchro

export function readInfo(doc: ConfigDocument): TConfigInfo {
  const s = doc.section('Info');
  return {
    exe: textOf(s, 'Exe'),
    serial: textOf(s, 'Serial'),
    automateInstall: intOf(s, 'NuxiAutomateInstall'),
    automateLabel: textOf(s, 'NuxiAutomateLibelle'),
    configUpdatedAt: digitsOf(s, 'DateMAJConfig'),
    connectorVersion: nonEmptyOf(s, 'VersionConnecteur'),
  };
}

export function readLastSync(doc: ConfigDocument): TLastSyncInfo {
  const s = doc.section('DerSynchro');
  return {
    dateHeure: digitsOf(s, 'DateHeure'),
    type: nonEmptyOf(s, 'TypeDeSync'),
    duration: nonEmptyOf(s, 'Duree'),
    durationAlert: flagOf(s, 'DureeAlerte'),
    records: numberOf(s, 'NbEnreg'),
    speed: numberOf(s, 'Vitesse'),
    volume: nonEmptyOf(s, 'Taille'),
    volumeAlert: flagOf(s, 'TailleAlerte'),
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
  const sources: TSourceView[] = childrenNamed(doc.section('Sources'), 'Source').map((s) => ({
    Provider: textOf(s, 'Provider'),
    Serveur: textOf(s, 'Serveur'),
    Nom_BDD: textOf(s, 'Nom_BDD'),
    Lecture_Seule: flagOf(s, 'Lecture_Seule'),
    Utilisateur: textOf(s, 'Utilisateur'),
    MDP: secretOf(s, 'MDP'),
    Status: intOf(s, 'Status'),
    StatusLibelle: textOf(s, 'StatusLibelle'),
  }));
  while (sources.length < CONFIG_BLOCK_COUNT) sources.push(emptySource());
  return { sources };
}

export function readExternalLinks(doc: ConfigDocument): TExternalLinksView {
  const s = doc.section('Liaisons_Externes');
  const Liaisons = childrenNamed(childNamed(s, 'Liaisons'), 'Liaison').map((l) => ({
    Logiciel: textOf(l, 'Logiciel'),
    Config: textOf(l, 'Config'),
    Utilisateur: textOf(l, 'Utilisateur'),
    MDP: secretOf(l, 'MDP'),
  }));
  while (Liaisons.length < CONFIG_BLOCK_COUNT)
    Liaisons.push({ Logiciel: '', Config: '', Utilisateur: '', MDP: '' });
  return {
    Dossier_Import: textOf(s, 'Dossier_Import'),
    Dossier_Export: textOf(s, 'Dossier_Export'),
    Liaisons,
  };
}

/** A mapping id as the view shows it: LIBRE_ID ('-1') for a free slot, whether stored '-1' or empty. */
export function mappingId(v: string | null): string {
  const t = (v ?? '').trim();
  return t === '' || t === LIBRE_ID ? LIBRE_ID : t;
}

export function readExternalCalendars(doc: ConfigDocument): TExternalCalendarsView {
  const agenda = pathNamed(doc.section('Liaisons_Externes'), 'Agenda');
  const mappings = childrenNamed(childNamed(agenda, 'Correspondances'), 'Correspondance').map((c) => ({
    ID_Salarie: mappingId(valueOf(c, 'ID_Salarie')),
    ID_Agenda: mappingId(valueOf(c, 'ID_Agenda')),
  }));
  const lists = readDataLists(doc);
  const employees: TCalendarEmployee[] = [
    ...lists.salaries.map((e) => ({ ...e, kind: 'salarie' as const })),
    ...lists.techniciens.map((e) => ({ ...e, kind: 'technicien' as const })),
  ];
  return { agendaType: textOf(agenda, 'Type_Agenda').trim(), mappings, employees, agendas: lists.agendas };
}

// ---------------------------------------------------------------------------------------------
// Data lists

function employees(list: XElement | null, item: string): TEmployee[] {
  const out: TEmployee[] = [];
  for (const e of childrenNamed(list, item)) {
    const IDInterne = textOf(e, 'IDInterne').trim();
    if (IDInterne === '') continue;
    out.push({ IDInterne, Nom: textOf(e, 'Nom'), Prenom: textOf(e, 'Prenom') });
  }
  return out;
}

export function readSalaries(doc: ConfigDocument): TEmployee[] {
  return employees(pathNamed(doc.section('Data'), 'CMB_SALARIES'), 'SALARIES');
}

export function readTechniciens(doc: ConfigDocument): TEmployee[] {
  return employees(pathNamed(doc.section('Data'), 'CMB_TECHNICIENS'), 'TECHNICIENS');
}

export function readDepots(doc: ConfigDocument): TDepot[] {
  const out: TDepot[] = [];
  for (const d of childrenNamed(pathNamed(doc.section('Data'), 'CMB_STOCK_DEPOT'), 'DEPOT')) {
    const IDInterne = textOf(d, 'IDInterne').trim();
    if (IDInterne === '') continue;
    out.push({ IDInterne, Code: textOf(d, 'Code'), Libelle: textOf(d, 'Libelle') });
  }
  return out;
}

function agendas(data: XElement | null): TAgendaItem[] {
  const out: TAgendaItem[] = [];
  for (const a of childrenNamed(childNamed(data, 'CMB_AGENDAS'), 'AGENDA')) {
    const ID = textOf(a, 'ID').trim();
    if (ID === '') continue;
    out.push({ ID, Libelle: textOf(a, 'Libelle') });
  }
  return out;
}

/**
 * A family list (CMB_FAMILLEARTICLE...): one row per family or sub-family, with IDFamille and
 * LibelleFamille for the family and IDInterne and Libelle for the sub-family (empty on a row for
 * the family alone). Either id may already be written `family|sub`. Families are listed in order
 * of first appearance, each with its sub-families.
 */
export function readFamilies(list: XElement | null, item: string): TFamily[] {
  const families = new Map<string, TFamily>();
  const subSeen = new Set<string>();
  for (const row of childrenNamed(list, item)) {
    let fam = textOf(row, 'IDFamille').trim();
    let sub = textOf(row, 'IDInterne').trim();
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
      family = { id: `${fam}|`, libelle: textOf(row, 'LibelleFamille'), subFamilies: [] };
      families.set(fam, family);
    } else if (family.libelle === '') family.libelle = textOf(row, 'LibelleFamille');
    if (sub !== '') {
      const id = `${fam}|${sub}`;
      if (!subSeen.has(id)) {
        subSeen.add(id);
        family.subFamilies.push({ id, libelle: textOf(row, 'Libelle') });
      }
    }
  }
  return [...families.values()];
}

export function readDataLists(doc: ConfigDocument): TDataLists {
  const data = doc.section('Data');
  return {
    salaries: employees(childNamed(data, 'CMB_SALARIES'), 'SALARIES'),
    techniciens: employees(childNamed(data, 'CMB_TECHNICIENS'), 'TECHNICIENS'),
    agendas: agendas(data),
    depots: readDepots(doc),
    famillesArticles: readFamilies(childNamed(data, 'CMB_FAMILLEARTICLE'), 'FAMILLEARTICLE'),
    famillesClients: readFamilies(childNamed(data, 'CMB_FAMILLECLIENT'), 'FAMILLECLIENT'),
    famillesFournisseurs: readFamilies(childNamed(data, 'CMB_FAMILLEFOURNISSEUR'), 'FAMILLEFOURNISSEUR'),
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
  const fromData = childrenNamed(pathNamed(doc.section('Data'), 'Autorisations'), 'Autorisation');
  const seen = new Set<string>();
  const authorizations: { ID: string; Libelle: string }[] = [];
  const add = (a: XElement): void => {
    const ID = textOf(a, 'ID').trim();
    if (ID === '' || seen.has(ID)) return;
    seen.add(ID);
    authorizations.push({ ID, Libelle: textOf(a, 'Libelle') });
  };
  for (const a of fromData) add(a);
  if (authorizations.length > 0) return { authorizations, from: 'data' };
  for (const t of childrenNamed(doc.section('Terminaux'), 'Terminal')) {
    for (const a of childrenNamed(childNamed(t, 'Autorisations'), 'Autorisation')) add(a);
  }
  return { authorizations, from: 'terminals' };
}

// ---------------------------------------------------------------------------------------------
// Données à synchroniser

/** ElementsSync/Element (Code, Histo), at the top level or inside Data. */
function elementsSync(doc: ConfigDocument): Map<string, boolean> | null {
  const list = doc.section('ElementsSync') ?? childNamed(doc.section('Data'), 'ElementsSync');
  if (!list) return null;
  const map = new Map<string, boolean>();
  for (const e of childrenNamed(list, 'Element')) {
    const code = textOf(e, 'Code').trim();
    if (code !== '') map.set(code, isTrue(valueOf(e, 'Histo')));
  }
  return map;
}

/**
 * Donnees_A_Synchroniser/Donnee. CanHaveHistory comes from ElementsSync (Element of the same
 * Code with Histo 1); without an ElementsSync list (the fixture has none), an item can have
 * history when it already has one (Histo above 0).
 */
export function readSyncData(doc: ConfigDocument): TSyncDataView {
  const can = elementsSync(doc);
  const syncData = childrenNamed(doc.section('Donnees_A_Synchroniser'), 'Donnee').map((d) => {
    const Reference = textOf(d, 'Reference').trim();
    const histo = intOf(d, 'Histo');
    const Histo = histo === null || histo < 0 ? 0 : histo;
    return {
      Reference,
      Complete: flagOf(d, 'Complete'),
      Libelle: textOf(d, 'Libelle'),
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
  const exclusions: TExclusion[] = [];
  for (const ex of childrenNamed(doc.section('Exclusions'), 'Exclusion')) {
    const type = textOf(ex, 'Type').trim() as TExclusionType;
    if (!EXCLUSION_TYPES.includes(type)) continue;
    for (const v of childrenNamed(childNamed(ex, 'Valeurs'), 'Valeur')) {
      const id = exclusionId(textOf(v, 'IDInterne') || textOf(v, 'Code'));
      if (id === '') continue;
      exclusions.push({ id, libelle: textOf(v, 'Libelle'), type });
    }
  }
  return { exclusions };
}

// ---------------------------------------------------------------------------------------------
// Complément

export function readComplement(doc: ConfigDocument): TComplementView {
  const s = doc.section('Complement');
  const mail = childNamed(s, 'Mail_Rapport');
  const drive = textOf(childNamed(s, 'Drive'), 'Type_Drive').trim();
  return {
    googleApiKey: textOf(s, 'APIKey_Google'),
    driveType: drive === '' ? 'none' : drive,
    mailRapport: {
      envoyerRapport: flagOf(mail, 'Envoyer_Rapport'),
      mailDestinataire: textOf(mail, 'MailDestinataire'),
      notifErr: flagOf(mail, 'NotifErr'),
      notifInf: flagOf(mail, 'NotifInf'),
      notifImp: flagOf(mail, 'NotifImp'),
      globaliserEnregImport: flagOf(mail, 'Globaliser_Enreg_Import'),
    },
    scriptComplementaire: textOf(s, 'ScriptComplementaire').replace(/\r\n?/g, '\n'),
  };
}

// ---------------------------------------------------------------------------------------------
// Planification

export function readPlanifications(doc: ConfigDocument): TPlanificationsView {
  const s = doc.section('Planifications');
  const plannings = childrenNamed(s, 'Planning').map((p) => ({
    day: intOf(p, 'Jour') ?? 0,
    time: textOf(p, 'Heure').trim(),
    type: textOf(p, 'Ordre').trim().toUpperCase(),
  }));
  return {
    timeZone: textOf(s, 'FuseauHoraire').trim(),
    timeZoneOffset: textOf(s, 'FuseauHoraireValeur').trim(),
    plannings,
  };
}

/** Number of schedules of each type (Planning/Ordre C, R, I). */
export function countPlannings(doc: ConfigDocument): TPlanningCounts {
  const counts = { C: 0, R: 0, I: 0 };
  for (const p of childrenNamed(doc.section('Planifications'), 'Planning')) {
    const o = textOf(p, 'Ordre').trim().toUpperCase();
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

/** The names shown for the terminals: 'Libre' when empty or already used by an earlier terminal. */
export function terminalDisplayNames(terminals: XElement[]): string[] {
  const used = new Set<string>();
  return terminals.map((t) => {
    const name = textOf(t, 'Nom');
    const key = name.trim();
    if (key === '' || used.has(key)) return TERMINAL_FREE_NAME;
    used.add(key);
    return name;
  });
}

export function readTerminalFrom(
  t: XElement,
  xmlIndex: number,
  displayName: string,
  global: { ID: string; Libelle: string }[],
): TTerminalView {
  const filtres = childNamed(t, 'Filtres');
  const ID_Tablette = textOf(t, 'ID_Tablette').trim();
  const ID_Smartphone = textOf(t, 'ID_Smartphone').trim();
  const values = new Map<string, -1 | 0 | 1>();
  for (const a of childrenNamed(childNamed(t, 'Autorisations'), 'Autorisation')) {
    const id = textOf(a, 'ID').trim();
    if (id !== '' && !values.has(id)) values.set(id, autoriseValue(valueOf(a, 'Autorise')));
  }
  const commerciaux = [];
  for (const c of childrenNamed(childNamed(filtres, 'Commerciaux'), 'Commercial')) {
    const IDInterne = textOf(c, 'IDInterne').trim();
    if (IDInterne !== '') commerciaux.push({ IDInterne, Libelle: textOf(c, 'Libelle') });
  }
  return {
    xmlIndex,
    Nom: displayName,
    ID_Tablette,
    ID_Smartphone,
    declared: ID_Tablette !== '' || ID_Smartphone !== '',
    technicienId: textOf(pathNamed(filtres, 'Techniciens/Technicien'), 'IDInterne').trim(),
    depotId: textOf(pathNamed(filtres, 'Depots/Depot'), 'IDInterne').trim(),
    commerciaux,
    authorizations: global.map((g) => ({ ID: g.ID, Libelle: g.Libelle, Autorise: values.get(g.ID) ?? 0 })),
  };
}

/** Terminaux/Terminal as the parsed entities of spec §3. */
export function readTerminals(doc: ConfigDocument): TTerminalsView {
  const list = childrenNamed(doc.section('Terminaux'), 'Terminal');
  const names = terminalDisplayNames(list);
  const global = readGlobalAuthorizations(doc).authorizations;
  return { terminals: list.map((t, i) => readTerminalFrom(t, i, names[i] as string, global)) };
}
