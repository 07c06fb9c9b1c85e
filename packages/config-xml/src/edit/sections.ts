import {
  AGENDA_TYPE_MESSAGE,
  DRIVE_TYPE_MESSAGE,
  emailListProblem,
  LIBRE_ID,
  SECRET_PLACEHOLDER,
  ZAgendaType,
  ZDriveType,
  ZComplementPayload,
  ZExternalCalendarsPayload,
  ZExternalLinksPayload,
  ZPlanificationsPayload,
  ZSourcesPayload,
  ZSyncDataPayload,
  type TComplementPayload,
  type TExternalCalendarsPayload,
  type TExternalLinksPayload,
  type TPlanificationsPayload,
  type TSourcesPayload,
  type TSyncDataPayload,
} from '@synchro/contracts';
import { asDocument, type ConfigDocument } from '../document.ts';
import { readExternalLinks, readSources } from '../read/readers.ts';
import { textOf } from '../read/values.ts';
import { childNamed, childrenNamed, type XElement } from '../xml/tree.ts';
import { invalidPayload, SectionEditor, validatePayload } from './editor.ts';
import { refuseMovedSecrets } from './moved-secrets.ts';

/**
 * Canonical child order of the nodes the edits may create (legacy documents' order), so that a
 * created node lands where the connector writes it.
 */
export const ORDER = {
  Complement: ['EspaceClient', 'APIKey_Google', 'Mail_Rapport', 'ScriptComplementaire', 'Drive'],
  Mail_Rapport: [
    'Envoyer_Rapport',
    'MailDestinataire',
    'NotifErr',
    'NotifInf',
    'NotifImp',
    'Globaliser_Enreg_Import',
  ],
  Drive: ['Type_Drive'],
  Source: [
    'Provider',
    'Serveur',
    'Nom_BDD',
    'Utilisateur',
    'MDP',
    'Lecture_Seule',
    'IP_Public',
    'Port_Public',
    'Tokens',
    'Status',
    'StatusLibelle',
  ],
  Liaisons_Externes: ['Dossier_Import', 'Dossier_Export', 'Liaisons', 'Agenda'],
  Liaison: ['Logiciel', 'Config', 'Utilisateur', 'MDP'],
  Agenda: ['Type_Agenda', 'Correspondances', 'Token'],
  Correspondance: ['ID_Salarie', 'ID_Agenda'],
  Planifications: ['FuseauHoraire', 'FuseauHoraireValeur', 'Planning'],
  Planning: ['Jour', 'Heure', 'Ordre'],
  Donnee: ['Reference', 'Complete', 'Libelle', 'Histo'],
  Exclusion: ['Type', 'Valeurs'],
  Valeur: ['Code', 'IDInterne', 'Libelle'],
} as const;

type Input = string | ConfigDocument;

/** Index of the last item for which `meaningful` holds, -1 when none. */
function lastMeaningful<T>(items: readonly T[], meaningful: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (meaningful(items[i] as T)) return i;
  return -1;
}

const isSecretEmpty = (v: string): boolean => v === '' || v === SECRET_PLACEHOLDER;

// ---------------------------------------------------------------------------------------------
// Sources

/**
 * Base de données source. Block i of the payload updates the i-th `Source` (Provider, Serveur,
 * Nom_BDD, Lecture_Seule, Utilisateur, MDP); Status, StatusLibelle, Tokens, IP_Public and
 * Port_Public stay. Blocks beyond the stored ones are created only up to the last non-empty one;
 * stored blocks beyond the payload stay as they are. A block that keeps its stored password (the
 * placeholder) cannot change where it goes (refuseMovedSecrets).
 */
export function editSources(input: Input, payload: TSourcesPayload): string {
  const p = validatePayload(ZSourcesPayload, payload);
  const doc = asDocument(input);
  refuseMovedSecrets('sources', readSources(doc).sources, p.sources);
  const ed = SectionEditor.open(doc, 'Sources');
  const existing = childrenNamed(ed.section, 'Source');
  const last = lastMeaningful(
    p.sources,
    (s) =>
      s.Provider !== '' ||
      s.Serveur !== '' ||
      s.Nom_BDD !== '' ||
      s.Utilisateur !== '' ||
      !isSecretEmpty(s.MDP) ||
      s.Lecture_Seule,
  );
  const previous: XElement | undefined = existing[existing.length - 1];
  const added: XElement[] = [];
  p.sources.forEach((s, i) => {
    let el = existing[i];
    if (!el) {
      if (i > last) return;
      el = ed.el(
        'Source',
        ORDER.Source.slice(0, 8).map((name) => ed.el(name, name === 'Lecture_Seule' ? '0' : '')),
      );
      added.push(el);
    }
    ed.setValue(el, 'Provider', s.Provider, ORDER.Source);
    ed.setValue(el, 'Serveur', s.Serveur, ORDER.Source);
    ed.setValue(el, 'Nom_BDD', s.Nom_BDD, ORDER.Source);
    ed.setValue(el, 'Utilisateur', s.Utilisateur, ORDER.Source);
    ed.setSecret(el, 'MDP', s.MDP, SECRET_PLACEHOLDER, ORDER.Source);
    ed.setFlag(el, 'Lecture_Seule', s.Lecture_Seule, ORDER.Source);
  });
  ed.insertAll(ed.section, added, previous ? { after: previous } : {});
  return ed.finish();
}

// ---------------------------------------------------------------------------------------------
// Liaisons externes

/**
 * Liaisons externes: Dossier_Import, Dossier_Export and the Liaison blocks (positional, as for the
 * sources). The Agenda part is editExternalCalendars'.
 */
export function editExternalLinks(input: Input, payload: TExternalLinksPayload): string {
  const p = validatePayload(ZExternalLinksPayload, payload);
  const doc = asDocument(input);
  refuseMovedSecrets('externalLinks', readExternalLinks(doc).Liaisons, p.Liaisons);
  const ed = SectionEditor.open(doc, 'Liaisons_Externes');
  const s = ed.section;
  ed.setValue(s, 'Dossier_Import', p.Dossier_Import, ORDER.Liaisons_Externes);
  ed.setValue(s, 'Dossier_Export', p.Dossier_Export, ORDER.Liaisons_Externes);
  const last = lastMeaningful(
    p.Liaisons,
    (l) => l.Logiciel !== '' || l.Config !== '' || l.Utilisateur !== '' || !isSecretEmpty(l.MDP),
  );
  let list = childNamed(s, 'Liaisons');
  const existing = childrenNamed(list, 'Liaison');
  const previous: XElement | undefined = existing[existing.length - 1];
  const added: XElement[] = [];
  p.Liaisons.forEach((l, i) => {
    let el = existing[i];
    if (!el) {
      if (i > last) return;
      el = ed.el(
        'Liaison',
        ORDER.Liaison.map((name) => ed.el(name)),
      );
      added.push(el);
    }
    ed.setValue(el, 'Logiciel', l.Logiciel, ORDER.Liaison);
    ed.setValue(el, 'Config', l.Config, ORDER.Liaison);
    ed.setValue(el, 'Utilisateur', l.Utilisateur, ORDER.Liaison);
    ed.setSecret(el, 'MDP', l.MDP, SECRET_PLACEHOLDER, ORDER.Liaison);
  });
  if (added.length > 0) {
    list ??= ed.ensure(s, 'Liaisons', ORDER.Liaisons_Externes);
    ed.insertAll(list, added, previous ? { after: previous } : {});
  }
  return ed.finish();
}

// ---------------------------------------------------------------------------------------------
// Agendas externes

const isLibre = (v: string): boolean => v.trim() === LIBRE_ID || v.trim() === '';

/**
 * Agendas externes: Agenda/Type_Agenda and the Correspondance rows (positional; a free id is
 * written -1). Rows are kept up to the last assigned one of the payload, or as many as both the
 * payload and the document have; the others are removed. The agenda Token stays.
 */
export function editExternalCalendars(input: Input, payload: TExternalCalendarsPayload): string {
  const p = validatePayload(ZExternalCalendarsPayload, payload);
  const ed = SectionEditor.open(input, 'Liaisons_Externes');
  let agenda = childNamed(ed.section, 'Agenda');
  let list = childNamed(agenda, 'Correspondances');
  const existing = childrenNamed(list, 'Correspondance');
  const last = lastMeaningful(p.mappings, (m) => !isLibre(m.ID_Salarie) || !isLibre(m.ID_Agenda));
  const target = Math.max(last + 1, Math.min(p.mappings.length, existing.length));
  if (!agenda && (p.agendaType !== '' || target > 0))
    agenda = ed.ensure(ed.section, 'Agenda', ORDER.Liaisons_Externes);
  const storedType = agenda ? textOf(agenda, 'Type_Agenda').trim() : '';
  if (p.agendaType.trim() !== storedType && !isOneOf(ZAgendaType.options, p.agendaType))
    throw invalidPayload([{ path: 'agendaType', message: AGENDA_TYPE_MESSAGE }]);
  if (agenda) ed.setTrimmed(agenda, 'Type_Agenda', p.agendaType, ORDER.Agenda);
  const previous: XElement | undefined = existing[Math.min(existing.length, target) - 1];
  const added: XElement[] = [];
  for (let i = 0; i < target; i++) {
    const m = p.mappings[i] as { ID_Salarie: string; ID_Agenda: string };
    let el = existing[i];
    if (!el) {
      el = ed.el('Correspondance', [ed.el('ID_Salarie', LIBRE_ID), ed.el('ID_Agenda', LIBRE_ID)]);
      added.push(el);
    }
    setMappingId(ed, el, 'ID_Salarie', m.ID_Salarie);
    setMappingId(ed, el, 'ID_Agenda', m.ID_Agenda);
  }
  if (added.length > 0) {
    list ??= ed.ensure(agenda as XElement, 'Correspondances', ORDER.Agenda);
    ed.insertAll(list, added, previous ? { after: previous } : {});
  }
  ed.removeAll(existing.slice(target));
  return ed.finish();
}

function setMappingId(ed: SectionEditor, row: XElement, name: string, value: string): void {
  const el = childNamed(row, name);
  const stored = el ? ed.current(el) : '';
  if (isLibre(value) && isLibre(stored) && el) return; // '-1' and '' both mean free
  ed.setTrimmed(row, name, isLibre(value) ? LIBRE_ID : value, ORDER.Correspondance);
}

// ---------------------------------------------------------------------------------------------
// Données à synchroniser

/**
 * Données à synchroniser: each item updates the Donnee of the same Reference (Complete, Histo).
 * The Libelle is the connector's and stays; an item whose Reference is not in the list is added
 * with its Libelle. Donnee elements the payload does not mention stay. If a Reference appears
 * twice in the payload, the last one wins.
 */
export function editSyncData(input: Input, payload: TSyncDataPayload): string {
  const p = validatePayload(ZSyncDataPayload, payload);
  const ed = SectionEditor.open(input, 'Donnees_A_Synchroniser');
  const byRef = new Map<string, XElement>();
  const all = childrenNamed(ed.section, 'Donnee');
  for (const d of all) {
    const ref = textOf(d, 'Reference').trim();
    if (!byRef.has(ref)) byRef.set(ref, d);
  }
  const previous: XElement | undefined = all[all.length - 1];
  const added: XElement[] = [];
  for (const item of p.syncData) {
    const ref = item.Reference.trim();
    let el = byRef.get(ref);
    if (!el) {
      el = ed.el('Donnee', [
        ed.el('Reference', ref),
        ed.el('Complete', item.Complete ? '1' : '0'),
        ed.el('Libelle', item.Libelle),
        ed.el('Histo', String(item.Histo)),
      ]);
      added.push(el);
      byRef.set(ref, el);
    }
    ed.setFlag(el, 'Complete', item.Complete, ORDER.Donnee);
    ed.setInt(el, 'Histo', item.Histo, ORDER.Donnee);
  }
  ed.insertAll(ed.section, added, previous ? { after: previous } : {});
  return ed.finish();
}

// ---------------------------------------------------------------------------------------------
// Complément

/**
 * Complément: APIKey_Google (a secret: the placeholder keeps it), Drive/Type_Drive ('none' stored empty), Mail_Rapport switches and
 * address, ScriptComplementaire (stored with CRLF line ends, as the connector writes it). The
 * customer-area login (EspaceClient) stays.
 */
export function editComplement(input: Input, payload: TComplementPayload): string {
  const p = validatePayload(ZComplementPayload, payload);
  const ed = SectionEditor.open(input, 'Complement');
  const s = ed.section;
  ed.setSecret(s, 'APIKey_Google', p.googleApiKey, SECRET_PLACEHOLDER, ORDER.Complement);
  const drive = p.driveType === 'none' ? '' : p.driveType;
  const driveEl = childNamed(s, 'Drive');
  const storedDrive = driveEl ? textOf(driveEl, 'Type_Drive').trim() : '';
  const same = storedDrive === drive || (drive === '' && storedDrive.toLowerCase() === 'none');
  if (!same && !isOneOf(ZDriveType.options, p.driveType))
    throw invalidPayload([{ path: 'driveType', message: DRIVE_TYPE_MESSAGE }]);
  if (!same) ed.setValue(ed.ensure(s, 'Drive', ORDER.Complement), 'Type_Drive', drive, ORDER.Drive);
  const m = p.mailRapport;
  // The addresses, when changed: well formed and at most MAX_RECIPIENTS (beyond, the emails would
  // silently reach the first ones only). A stored value comes back as it is.
  const storedAddresses = childNamed(childNamed(s, 'Mail_Rapport'), 'MailDestinataire');
  if (m.mailDestinataire !== (storedAddresses ? ed.current(storedAddresses) : '')) {
    const problem = emailListProblem(m.mailDestinataire);
    if (problem) throw invalidPayload([{ path: 'mailRapport.mailDestinataire', message: problem }]);
  }
  const anyMail =
    m.envoyerRapport ||
    m.mailDestinataire !== '' ||
    m.notifErr ||
    m.notifInf ||
    m.notifImp ||
    m.globaliserEnregImport;
  const mail =
    childNamed(s, 'Mail_Rapport') ?? (anyMail ? ed.ensure(s, 'Mail_Rapport', ORDER.Complement) : null);
  if (mail) {
    const flag = (name: string, v: boolean): void => {
      if (v || childNamed(mail, name)) ed.setFlag(mail, name, v, ORDER.Mail_Rapport);
    };
    flag('Envoyer_Rapport', m.envoyerRapport);
    ed.setValue(mail, 'MailDestinataire', m.mailDestinataire, ORDER.Mail_Rapport);
    flag('NotifErr', m.notifErr);
    flag('NotifInf', m.notifInf);
    flag('NotifImp', m.notifImp);
    flag('Globaliser_Enreg_Import', m.globaliserEnregImport);
  }
  const script = childNamed(s, 'ScriptComplementaire');
  const storedScript = script ? ed.current(script).replace(/\r\n?/g, '\n') : '';
  if (storedScript !== p.scriptComplementaire) {
    ed.setValue(s, 'ScriptComplementaire', p.scriptComplementaire.replace(/\n/g, '\r\n'), ORDER.Complement);
  }
  return ed.finish();
}

// ---------------------------------------------------------------------------------------------
// Planification

/**
 * Planification: the Planning entries (positional: Jour, Heure, Ordre; extra stored ones removed)
 * and, when `timeZone` is sent, FuseauHoraire (its label) and FuseauHoraireValeur (its value,
 * an offset written ±hh:mm).
 */
export function editPlanifications(input: Input, payload: TPlanificationsPayload): string {
  const p = validatePayload(ZPlanificationsPayload, payload);
  const ed = SectionEditor.open(input, 'Planifications');
  const s = ed.section;
  if (p.timeZone) {
    ed.setTrimmed(s, 'FuseauHoraire', p.timeZone.label, ORDER.Planifications);
    ed.setTrimmed(s, 'FuseauHoraireValeur', p.timeZone.value, ORDER.Planifications);
  }
  const existing = childrenNamed(s, 'Planning');
  const added: XElement[] = [];
  p.plannings.forEach((pl, i) => {
    let el = existing[i];
    if (!el) {
      el = ed.el('Planning', [
        ed.el('Jour', String(pl.day)),
        ed.el('Heure', pl.time),
        ed.el('Ordre', pl.type),
      ]);
      added.push(el);
    }
    ed.setInt(el, 'Jour', pl.day, ORDER.Planning);
    ed.setTrimmed(el, 'Heure', pl.time, ORDER.Planning);
    const ordre = childNamed(el, 'Ordre');
    if (!ordre || ed.current(ordre).trim().toUpperCase() !== pl.type)
      ed.setValue(el, 'Ordre', pl.type, ORDER.Planning);
  });
  // Each new one after the one before (insertOrdered would find the last Planning: that one).
  ed.insertAllOrdered(s, added, ORDER.Planifications);
  ed.removeAll(existing.slice(p.plannings.length));
  return ed.finish();
}

/** Whether `value` is one of the closed list `options` (a select's choices). */
function isOneOf(options: readonly string[], value: string): boolean {
  return options.includes(value);
}
