import {
  HISTORY_SECTIONS,
  PROVIDER_OPTIONS,
  type TEditKind,
  type TFieldChange,
  type THistorySection,
  type TSectionChanges,
} from '@synchro/contracts';
import { asDocument, type ConfigDocument } from '../document.ts';
import { readDataLists } from '../read/data-lists.ts';
import {
  readComplement,
  readExclusions,
  readExternalCalendars,
  readExternalLinks,
  readPlanifications,
  readSources,
  readSyncData,
} from '../read/readers.ts';
import { readTerminals } from '../read/terminals.ts';
import { childNamed, childrenNamed, pathNamed, serialize, type XElement } from '../xml/tree.ts';
import { changedScopes, type ScopeGenerations, type ScopeKind } from './scopes.ts';

/**
 * Field-level changes between two versions, section by section, built from the typed views the
 * screens show (labels of the screens, values decoded from the connector's convention). A secret
 * is never in them: its raw stored values are compared here, on the server, and only « modifié »
 * or « inchangé » leaves.
 */

/** The history section of an edit kind (the terminal's edits belong to Terminaux). */
export const SECTION_OF_KIND: Record<TEditKind, THistorySection> = {
  sources: 'sources',
  externalLinks: 'externalLinks',
  externalCalendars: 'externalCalendars',
  syncData: 'syncData',
  exclusions: 'exclusions',
  complement: 'complement',
  planifications: 'planifications',
  terminal: 'terminals',
};
export const KIND_OF_SECTION: Record<THistorySection, TEditKind> = {
  sources: 'sources',
  externalLinks: 'externalLinks',
  externalCalendars: 'externalCalendars',
  syncData: 'syncData',
  exclusions: 'exclusions',
  complement: 'complement',
  planifications: 'planifications',
  terminals: 'terminal',
};

/** The sections a version changed, in menu order, from its scope generations. */
export function sectionsChanged(generations: ScopeGenerations, version: number): THistorySection[] {
  const { kinds, terminals } = changedScopes(generations, version);
  const set = new Set<THistorySection>(kinds.map((k: ScopeKind) => SECTION_OF_KIND[k]));
  if (terminals.length > 0) set.add('terminals');
  return (Object.keys(HISTORY_SECTIONS) as THistorySection[]).filter((s) => set.has(s));
}

const yesNo = (b: boolean) => (b ? 'Oui' : 'Non');
const nf = new Intl.NumberFormat('fr-FR');

function field(label: string, before: string, after: string): TFieldChange | null {
  return before === after ? null : { label, before, after, secret: false, changed: true };
}
function secretField(label: string, changed: boolean): TFieldChange {
  return { label, before: null, after: null, secret: true, changed };
}
const kept = (rows: (TFieldChange | null)[]): TFieldChange[] =>
  rows.filter((r): r is TFieldChange => r !== null);

/** « 2 plannings ajoutés, 1 supprimé » (French plural of each part; zero parts left out). */
function counted(parts: [number, string, string][]): string {
  return parts
    .filter(([n]) => n > 0)
    .map(([n, one, many]) => `${nf.format(n)}\u00a0${n > 1 ? many : one}`)
    .join(', ');
}

/** Raw stored text of a secret child (compared, never shown); '' when absent. */
function rawChild(el: XElement | null | undefined, name: string, doc: ConfigDocument): string {
  const c = childNamed(el ?? null, name);
  return c ? serialize(c, doc.src).replace(/^<[^>]*\/>$/, '') : '';
}

const providerLabel = (v: string) => PROVIDER_OPTIONS.find((o) => o.value === v)?.label ?? v;

function sourcesChanges(b: ConfigDocument, a: ConfigDocument): { fields: TFieldChange[]; summary: string } {
  const vb = readSources(b).sources;
  const va = readSources(a).sources;
  const sb = childrenNamed(b.section('Sources'), 'Source');
  const sa = childrenNamed(a.section('Sources'), 'Source');
  const fields: TFieldChange[] = [];
  const changed: number[] = [];
  for (let i = 0; i < Math.max(vb.length, va.length); i++) {
    const x = vb[i];
    const y = va[i];
    const p = `Connexion ${i + 1} — `;
    const rows = kept([
      field(`${p}Provider`, providerLabel(x?.Provider ?? ''), providerLabel(y?.Provider ?? '')),
      field(`${p}Serveur`, x?.Serveur ?? '', y?.Serveur ?? ''),
      field(`${p}Base de données`, x?.Nom_BDD ?? '', y?.Nom_BDD ?? ''),
      field(`${p}Utilisateur`, x?.Utilisateur ?? '', y?.Utilisateur ?? ''),
      field(`${p}Lecture seule`, yesNo(x?.Lecture_Seule ?? false), yesNo(y?.Lecture_Seule ?? false)),
    ]);
    const secretChanged = rawChild(sb[i], 'MDP', b) !== rawChild(sa[i], 'MDP', a);
    if (rows.length === 0 && !secretChanged) continue;
    changed.push(i + 1);
    fields.push(...rows, secretField(`${p}Mot de passe`, secretChanged));
  }
  return { fields, summary: blocks('connexion', changed) };
}

/** « connexion 1 modifiée », « connexions 1 et 3 modifiées ». */
function blocks(noun: string, numbers: number[], feminine = true): string {
  if (numbers.length === 0) return '';
  const e = feminine ? 'e' : '';
  if (numbers.length === 1) return `${noun} ${numbers[0]} modifié${e}`;
  const list = `${numbers.slice(0, -1).join(', ')} et ${numbers.at(-1)}`;
  return `${noun}s ${list} modifié${e}s`;
}

function externalLinksChanges(b: ConfigDocument, a: ConfigDocument) {
  const vb = readExternalLinks(b);
  const va = readExternalLinks(a);
  const lb = childrenNamed(pathNamed(b.section('Liaisons_Externes'), 'Liaisons'), 'Liaison');
  const la = childrenNamed(pathNamed(a.section('Liaisons_Externes'), 'Liaisons'), 'Liaison');
  const fields = kept([
    field("Dossier d'import", vb.Dossier_Import, va.Dossier_Import),
    field("Dossier d'export", vb.Dossier_Export, va.Dossier_Export),
  ]);
  const folders = fields.length;
  const changed: number[] = [];
  for (let i = 0; i < Math.max(vb.Liaisons.length, va.Liaisons.length); i++) {
    const x = vb.Liaisons[i];
    const y = va.Liaisons[i];
    const p = `Liaison ${i + 1} — `;
    const rows = kept([
      field(`${p}Logiciel maître`, x?.Logiciel ?? '', y?.Logiciel ?? ''),
      field(`${p}Configuration maître`, x?.Config ?? '', y?.Config ?? ''),
      field(`${p}Utilisateur logiciel`, x?.Utilisateur ?? '', y?.Utilisateur ?? ''),
    ]);
    const secretChanged = rawChild(lb[i], 'MDP', b) !== rawChild(la[i], 'MDP', a);
    if (rows.length === 0 && !secretChanged) continue;
    changed.push(i + 1);
    fields.push(...rows, secretField(`${p}Mot de passe`, secretChanged));
  }
  const parts = [
    folders > 0 ? (folders > 1 ? 'dossiers modifiés' : 'dossier modifié') : '',
    blocks('liaison', changed),
  ];
  return { fields, summary: parts.filter(Boolean).join(', ') };
}

const AGENDA_TYPES: Record<string, string> = {
  '': "Pas d'agenda Externe",
  Google: 'Compte Gmail Google Agenda',
  Microsoft: 'Compte Office 365 Outlook',
};

function externalCalendarsChanges(b: ConfigDocument, a: ConfigDocument) {
  const vb = readExternalCalendars(b);
  const va = readExternalCalendars(a);
  const names = new Map<string, string>();
  for (const e of [...vb.employees, ...va.employees]) names.set(e.IDInterne, `${e.Nom} ${e.Prenom}`.trim());
  const agendas = new Map<string, string>();
  for (const g of [...vb.agendas, ...va.agendas]) agendas.set(g.ID, g.Libelle);
  const person = (id: string | undefined) =>
    id === undefined ? '' : id === '-1' ? 'Libre' : (names.get(id) ?? id);
  const agenda = (id: string | undefined) =>
    id === undefined ? '' : id === '-1' ? 'Libre' : (agendas.get(id) ?? id);
  const fields = kept([
    field(
      "Type d'agenda",
      AGENDA_TYPES[vb.agendaType] ?? vb.agendaType,
      AGENDA_TYPES[va.agendaType] ?? va.agendaType,
    ),
  ]);
  const typeChanged = fields.length > 0;
  let rows = 0;
  for (let i = 0; i < Math.max(vb.mappings.length, va.mappings.length); i++) {
    const x = vb.mappings[i];
    const y = va.mappings[i];
    const r = kept([
      field(`Ligne ${i + 1} — Salarié`, person(x?.ID_Salarie), person(y?.ID_Salarie)),
      field(`Ligne ${i + 1} — Agenda`, agenda(x?.ID_Agenda), agenda(y?.ID_Agenda)),
    ]);
    if (r.length > 0) rows++;
    fields.push(...r);
  }
  const parts = [
    typeChanged ? "type d'agenda modifié" : '',
    counted([[rows, 'correspondance modifiée', 'correspondances modifiées']]),
  ];
  return { fields, summary: parts.filter(Boolean).join(', ') };
}

function syncDataChanges(b: ConfigDocument, a: ConfigDocument) {
  const before = new Map(readSyncData(b).syncData.map((d) => [d.Reference, d]));
  const fields: TFieldChange[] = [];
  let n = 0;
  for (const y of readSyncData(a).syncData) {
    const x = before.get(y.Reference);
    const name = y.Libelle || y.Reference;
    const r = kept([
      field(`${name} — Synchroniser`, x ? yesNo(x.Complete) : '', yesNo(y.Complete)),
      field(`${name} — Historique`, x ? String(x.Histo) : '', String(y.Histo)),
    ]);
    if (r.length > 0) n++;
    fields.push(...r);
  }
  return { fields, summary: counted([[n, 'donnée modifiée', 'données modifiées']]) };
}

const EXCLUSION_COLUMNS: Record<string, string> = {
  ItemFamily: 'Famille articles',
  CustomerFamily: 'Famille clients',
  SupplierFamily: 'Famille fournisseurs',
};

function exclusionsChanges(b: ConfigDocument, a: ConfigDocument) {
  const key = (e: { id: string; type: string }) => `${e.type}\u0000${e.id}`;
  const xb = readExclusions(b).exclusions;
  const xa = readExclusions(a).exclusions;
  const inB = new Set(xb.map(key));
  const inA = new Set(xa.map(key));
  const label = (e: { id: string; libelle: string; type: string }) =>
    `${EXCLUSION_COLUMNS[e.type] ?? e.type} — ${e.libelle || e.id}`;
  const added = xa.filter((e) => !inB.has(key(e)));
  const removed = xb.filter((e) => !inA.has(key(e)));
  const fields: TFieldChange[] = [
    ...added.map((e) => ({
      label: label(e),
      before: 'Non exclue',
      after: 'Exclue',
      secret: false,
      changed: true,
    })),
    ...removed.map((e) => ({
      label: label(e),
      before: 'Exclue',
      after: 'Non exclue',
      secret: false,
      changed: true,
    })),
  ];
  return {
    fields,
    summary: counted([
      [added.length, 'exclusion ajoutée', 'exclusions ajoutées'],
      [removed.length, 'supprimée', 'supprimées'],
    ]),
  };
}

const DRIVES: Record<string, string> = { none: 'Pas de Drive', google: 'Google Drive', onedrive: 'OneDrive' };

function complementChanges(b: ConfigDocument, a: ConfigDocument) {
  const x = readComplement(b);
  const y = readComplement(a);
  const mb = x.mailRapport;
  const ma = y.mailRapport;
  const keyChanged =
    rawChild(b.section('Complement'), 'APIKey_Google', b) !==
    rawChild(a.section('Complement'), 'APIKey_Google', a);
  const fields = kept([
    keyChanged ? secretField('Api de géocodage', true) : null,
    field('Drive pour la GED', DRIVES[x.driveType] ?? x.driveType, DRIVES[y.driveType] ?? y.driveType),
    field('Envoyer un rapport de synchro par mail', yesNo(mb.envoyerRapport), yesNo(ma.envoyerRapport)),
    field('Notification par email', mb.mailDestinataire, ma.mailDestinataire),
    field('Notification Erreur', yesNo(mb.notifErr), yesNo(ma.notifErr)),
    field('Notification Import', yesNo(mb.notifImp), yesNo(ma.notifImp)),
    field('Notification Info', yesNo(mb.notifInf), yesNo(ma.notifInf)),
    field(
      'Globaliser les importations des saisies mobiles',
      yesNo(mb.globaliserEnregImport),
      yesNo(ma.globaliserEnregImport),
    ),
    field('Script complémentaire', x.scriptComplementaire, y.scriptComplementaire),
  ]);
  const summary =
    fields.length === 1
      ? `${(fields[0] as TFieldChange).label} modifié`
      : counted([[fields.length, 'paramètre modifié', 'paramètres modifiés']]);
  return { fields, summary };
}

const DAYS = ['', 'Lundi', 'Mardi', 'Mercredi', 'Jeudi', 'Vendredi', 'Samedi', 'Dimanche', 'Tous les jours'];
const TYPES: Record<string, string> = { C: 'Complète', R: 'Incrémentale', I: 'Import Saisies Mobiles' };

function planificationsChanges(b: ConfigDocument, a: ConfigDocument) {
  const x = readPlanifications(b);
  const y = readPlanifications(a);
  const line = (p: { day: number; time: string; type: string }) =>
    `${DAYS[p.day] ?? String(p.day)} ${p.time} ${TYPES[p.type] ?? p.type}`;
  const left = new Map<string, number>();
  for (const p of x.plannings) left.set(line(p), (left.get(line(p)) ?? 0) + 1);
  const added: string[] = [];
  for (const p of y.plannings) {
    const l = line(p);
    const n = left.get(l) ?? 0;
    if (n > 0) left.set(l, n - 1);
    else added.push(l);
  }
  const removed = [...left].flatMap(([l, n]) => Array<string>(n).fill(l));
  const zone = (v: typeof x) => [v.timeZone, v.timeZoneOffset].filter(Boolean).join(' ');
  const fields = kept([field('Fuseau horaire', zone(x), zone(y))]);
  const zoneChanged = fields.length > 0;
  fields.push(
    ...added.map((l) => ({
      label: 'Planification',
      before: '',
      after: l,
      secret: false,
      changed: true,
    })),
    ...removed.map((l) => ({
      label: 'Planification',
      before: l,
      after: '',
      secret: false,
      changed: true,
    })),
  );
  const parts = [
    zoneChanged ? 'fuseau horaire modifié' : '',
    counted([
      [added.length, 'planning ajouté', 'plannings ajoutés'],
      [removed.length, 'supprimé', 'supprimés'],
    ]),
  ];
  return { fields, summary: parts.filter(Boolean).join(', ') };
}

const AUTORISE: Record<number, string> = { 1: 'Autorisé', 0: 'Interdit', [-1]: 'Invisible' };

function terminalsChanges(b: ConfigDocument, a: ConfigDocument, only?: readonly number[]) {
  const tb = readTerminals(b).terminals;
  const ta = readTerminals(a).terminals;
  const lb = readDataLists(b);
  const la = readDataLists(a);
  const people = new Map<string, string>();
  for (const e of [...lb.techniciens, ...lb.salaries, ...la.techniciens, ...la.salaries])
    people.set(e.IDInterne, `${e.Nom} ${e.Prenom}`.trim());
  const depots = new Map<string, string>();
  for (const d of [...lb.depots, ...la.depots]) depots.set(d.IDInterne, d.Libelle);
  const fields: TFieldChange[] = [];
  const changed: number[] = [];
  for (let i = 0; i < Math.min(tb.length, ta.length); i++) {
    if (only && !only.includes(i)) continue;
    const x = tb[i]!;
    const y = ta[i]!;
    const p = `Terminal #${i + 1} (${y.Nom}) — `;
    const rows = kept([
      field(`${p}Nom de l'utilisateur`, x.Nom, y.Nom),
      field(`${p}Identifiant Tablette / PC`, x.ID_Tablette, y.ID_Tablette),
      field(`${p}Identifiant Smartphone`, x.ID_Smartphone, y.ID_Smartphone),
      field(
        `${p}Technicien par défaut`,
        people.get(x.technicienId) ?? x.technicienId,
        people.get(y.technicienId) ?? y.technicienId,
      ),
      field(`${p}Dépôt par défaut`, depots.get(x.depotId) ?? x.depotId, depots.get(y.depotId) ?? y.depotId),
    ]);
    const cb = new Set(x.commerciaux.map((c) => c.IDInterne));
    const ca = new Set(y.commerciaux.map((c) => c.IDInterne));
    for (const c of y.commerciaux)
      if (!cb.has(c.IDInterne))
        rows.push({
          label: `${p}Filtre Commerciaux`,
          before: '',
          after: c.Libelle,
          secret: false,
          changed: true,
        });
    for (const c of x.commerciaux)
      if (!ca.has(c.IDInterne))
        rows.push({
          label: `${p}Filtre Commerciaux`,
          before: c.Libelle,
          after: '',
          secret: false,
          changed: true,
        });
    const ab = new Map(x.authorizations.map((z) => [z.ID, z.Autorise]));
    for (const z of y.authorizations) {
      const was = ab.get(z.ID) ?? 0;
      if (was !== z.Autorise)
        rows.push({
          label: `${p}${z.Libelle || z.ID}`,
          before: AUTORISE[was] ?? '',
          after: AUTORISE[z.Autorise] ?? '',
          secret: false,
          changed: true,
        });
    }
    if (rows.length === 0) continue;
    changed.push(i + 1);
    fields.push(...rows);
  }
  const summary =
    changed.length === 1
      ? `terminal #${changed[0]} modifié`
      : changed.length > 1
        ? `terminaux ${changed.map((n) => `#${n}`).join(', ')} modifiés`
        : '';
  return { fields, summary };
}

const BUILDERS: Record<
  THistorySection,
  (b: ConfigDocument, a: ConfigDocument) => { fields: TFieldChange[]; summary: string }
> = {
  sources: sourcesChanges,
  externalLinks: externalLinksChanges,
  externalCalendars: externalCalendarsChanges,
  syncData: syncDataChanges,
  exclusions: exclusionsChanges,
  complement: complementChanges,
  planifications: planificationsChanges,
  terminals: (b, a) => terminalsChanges(b, a),
};

/**
 * The changes of `sections` from `before` to `after`, sections without a visible change left
 * out. The summary line of each: « Planification : 2 plannings ajoutés, 1 supprimé ».
 */
export function sectionChanges(
  before: string | ConfigDocument,
  after: string | ConfigDocument,
  sections: readonly THistorySection[],
): TSectionChanges[] {
  const b = asDocument(before);
  const a = asDocument(after);
  const out: TSectionChanges[] = [];
  for (const section of sections) {
    const { fields, summary } = BUILDERS[section](b, a);
    const label = HISTORY_SECTIONS[section];
    // Bytes changed without a visible change (formatting, an artefact): said as such.
    const line = summary || (fields.length > 0 ? 'modifiée' : 'texte modifié sans changement visible');
    out.push({ section, label, summary: `${label}\u00a0: ${line}`, fields });
  }
  return out;
}
