import type { TEditKind } from '@synchro/contracts';
import { asDocument, parseConfig, type ConfigDocument, type SectionName } from '../document.ts';
import { SectionEditor } from '../edit/editor.ts';
import { ORDER } from '../edit/sections.ts';
import { ConfigXmlError } from '../errors.ts';
import { editScope, EDIT_SECTION } from '../scope.ts';
import {
  childNamed,
  childrenNamed,
  pathNamed,
  serialize,
  touch,
  xmlText,
  XText,
  type XElement,
} from '../xml/tree.ts';
import { terminalCount } from './scopes.ts';

/**
 * Restore of sections of an older version into the newest document: the nodes each edit kind
 * owns (exactly those of its `editScope`) are put back as they were in the old version, byte for
 * byte, secrets included; everything else (other sections, the connector's nodes inside the
 * section: source statuses and tokens, the agenda token, EspaceClient, NuxiSavOnLine
 * exclusions, unknown nodes) stays as it is in the newest document. Afterwards each restored
 * scope equals the old one (checked: a restore that cannot hold this is refused).
 */

const SOURCE_FIELDS = ['Provider', 'Serveur', 'Nom_BDD', 'Utilisateur', 'MDP', 'Lecture_Seule'];
const LINK_FIELDS = ['Dossier_Import', 'Dossier_Export', 'Liaisons'];
const AGENDA_FIELDS = ['Type_Agenda', 'Correspondances'];
const COMPLEMENT_FIELDS = ['APIKey_Google', 'Drive', 'Mail_Rapport', 'ScriptComplementaire'];
const OWNED_EXCLUSIONS = new Set(['ItemFamily', 'CustomerFamily', 'SupplierFamily']);

/** Replaces `node` by the exact text `raw` (an element of the old version, as written there). */
function graft(node: XElement, raw: string): void {
  const parent = node.parent;
  if (!parent) return;
  const kids = parent.children;
  const t = new XText(-1, -1, raw);
  t.parent = parent;
  kids[kids.indexOf(node)] = t;
  touch(parent);
}

/** Inserts the old element `old` (its exact text) into `parent` at its place in `order`. */
function insertRaw(
  ed: SectionEditor,
  parent: XElement,
  old: XElement,
  oldDoc: ConfigDocument,
  order: readonly string[],
): void {
  const slot = ed.insertOrdered(parent, ed.el(old.name), order);
  graft(slot, serialize(old, oldDoc.src));
}

/** Inserts old elements (their exact texts) into the section, one after the other after `after`. */
function appendRaw(
  ed: SectionEditor,
  name: string,
  after: XElement | undefined,
  raws: readonly string[],
): void {
  const slots: XElement[] = [];
  let previous = after;
  for (let i = 0; i < raws.length; i++) {
    const slot = ed.insert(ed.section, ed.el(name), previous ? { after: previous } : {});
    slots.push(slot);
    previous = slot;
  }
  slots.forEach((slot, i) => graft(slot, raws[i] as string));
}

/** The child `name` of `cur` made what it is in `old` (replaced, created or removed). */
function transplant(
  ed: SectionEditor,
  cur: XElement,
  old: XElement | null,
  oldDoc: ConfigDocument,
  name: string,
  order: readonly string[],
): void {
  const c = childNamed(cur, name);
  const o = old ? childNamed(old, name) : null;
  if (o && c) {
    const raw = serialize(o, oldDoc.src);
    if (raw !== serialize(c, ed.src)) graft(c, raw);
  } else if (o) insertRaw(ed, cur, o, oldDoc, order);
  else if (c) ed.remove(c);
}

function restoreSources(cur: ConfigDocument, old: ConfigDocument): string {
  const ed = SectionEditor.open(cur, 'Sources');
  const curSources = childrenNamed(ed.section, 'Source');
  const oldSources = childrenNamed(old.section('Sources'), 'Source');
  const added: XElement[] = [];
  for (let i = 0; i < Math.max(curSources.length, oldSources.length); i++) {
    const c = curSources[i];
    const o = oldSources[i] ?? null;
    if (c) {
      for (const f of SOURCE_FIELDS) transplant(ed, c, o, old, f, ORDER.Source);
    } else if (o) added.push(o);
  }
  // Sources the newest document does not have: the old ones whole (no newer status exists).
  appendRaw(
    ed,
    'Source',
    curSources.at(-1),
    added.map((o) => serialize(o, old.src)),
  );
  return ed.finish();
}

function restoreExternalLinks(cur: ConfigDocument, old: ConfigDocument): string {
  const ed = SectionEditor.open(cur, 'Liaisons_Externes');
  const o = old.section('Liaisons_Externes');
  for (const f of LINK_FIELDS) transplant(ed, ed.section, o, old, f, ORDER.Liaisons_Externes);
  return ed.finish();
}

function restoreExternalCalendars(cur: ConfigDocument, old: ConfigDocument): string {
  const ed = SectionEditor.open(cur, 'Liaisons_Externes');
  const o = pathNamed(old.section('Liaisons_Externes'), 'Agenda');
  const c = childNamed(ed.section, 'Agenda');
  if (!c && !o) return cur.text;
  const agenda = c ?? ed.ensure(ed.section, 'Agenda', ORDER.Liaisons_Externes);
  for (const f of AGENDA_FIELDS) transplant(ed, agenda, o, old, f, ORDER.Agenda);
  return ed.finish();
}

function restoreComplement(cur: ConfigDocument, old: ConfigDocument): string {
  const ed = SectionEditor.open(cur, 'Complement');
  const o = old.section('Complement');
  for (const f of COMPLEMENT_FIELDS) transplant(ed, ed.section, o, old, f, ORDER.Complement);
  return ed.finish();
}

const isOwnedExclusion = (ex: XElement): boolean => {
  const type = childNamed(ex, 'Type');
  return type !== null && OWNED_EXCLUSIONS.has(xmlText(type).trim());
};

function restoreExclusions(cur: ConfigDocument, old: ConfigDocument): string {
  const ed = SectionEditor.open(cur, 'Exclusions');
  const curOwned = childrenNamed(ed.section, 'Exclusion').filter(isOwnedExclusion);
  const oldOwned = childrenNamed(old.section('Exclusions'), 'Exclusion').filter(isOwnedExclusion);
  const rawOld = oldOwned.map((e) => serialize(e, old.src));
  const rawCur = curOwned.map((e) => serialize(e, ed.src));
  if (rawOld.length === rawCur.length && rawOld.every((r, i) => r === rawCur[i])) return cur.text;
  for (const e of curOwned) ed.remove(e);
  // The old families go after the Exclusion elements kept (NuxiSavOnLine), in their old order.
  appendRaw(ed, 'Exclusion', childrenNamed(ed.section, 'Exclusion').at(-1), rawOld);
  return ed.finish();
}

function restoreTerminals(cur: ConfigDocument, old: ConfigDocument): string {
  const ed = SectionEditor.open(cur, 'Terminaux', 1);
  const curT = childrenNamed(ed.section, 'Terminal');
  const oldT = childrenNamed(old.section('Terminaux', { depth: 1, fresh: true }), 'Terminal');
  // Terminals are positional and the console never adds or removes one: those of both versions.
  for (let i = 0; i < Math.min(curT.length, oldT.length); i++) {
    const raw = serialize(oldT[i] as XElement, old.src);
    if (raw !== serialize(curT[i] as XElement, ed.src)) graft(curT[i] as XElement, raw);
  }
  return ed.finish();
}

/** A whole section (every byte of it is the edit's): the old text in place of the newest. */
function restoreWhole(cur: ConfigDocument, old: ConfigDocument, name: SectionName): string {
  const oldText = old.sectionText(name);
  if (oldText === null) return cur.text;
  const ed = SectionEditor.open(cur, name);
  const doc = ed.doc;
  const r = doc.range(name);
  if (!r) return cur.text;
  return doc.text.slice(0, r.start) + oldText + doc.text.slice(r.end);
}

const RESTORERS: Record<TEditKind, (cur: ConfigDocument, old: ConfigDocument) => string> = {
  sources: restoreSources,
  externalLinks: restoreExternalLinks,
  externalCalendars: restoreExternalCalendars,
  syncData: (c, o) => restoreWhole(c, o, 'Donnees_A_Synchroniser'),
  exclusions: restoreExclusions,
  complement: restoreComplement,
  planifications: (c, o) => restoreWhole(c, o, 'Planifications'),
  terminal: restoreTerminals,
};

/** Whether a restore of `kind` can bring the old scope back (the old version has its section). */
function restorable(old: ConfigDocument, kind: TEditKind): boolean {
  return old.range(EDIT_SECTION[kind]) !== null;
}

/**
 * `current` with the scopes of `kinds` as they are in `old` (see above). Returns the text of
 * `current` itself when nothing differs. Throws ConfigXmlError('restore-refused') when a
 * restored scope would not equal the old one.
 */
export function restoreScopes(
  current: string | ConfigDocument,
  old: string | ConfigDocument,
  kinds: readonly TEditKind[],
): string {
  const oldDoc = asDocument(old);
  let doc = asDocument(current);
  for (const kind of kinds) {
    if (!restorable(oldDoc, kind)) continue;
    const text = RESTORERS[kind](doc, oldDoc);
    if (text !== doc.text) doc = parseConfig(text);
  }
  for (const kind of kinds) {
    if (!restorable(oldDoc, kind)) continue;
    const same =
      kind === 'terminal'
        ? Array.from(
            { length: Math.min(terminalCount(doc), terminalCount(oldDoc)) },
            (_, i) => editScope(doc, 'terminal', i) === editScope(oldDoc, 'terminal', i),
          ).every(Boolean)
        : editScope(doc, kind) === editScope(oldDoc, kind);
    if (!same)
      throw new ConfigXmlError(
        'restore-refused',
        `La restauration de la section « ${EDIT_SECTION[kind]} » ne redonnerait pas exactement la version choisie : rien n'a été enregistré.`,
      );
  }
  return doc.text;
}
