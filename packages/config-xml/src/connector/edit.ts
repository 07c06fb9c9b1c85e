import {
  ZConnectorConfigPatch,
  type TConnectorConfigPatch,
  type TConnectorConfigPatchInput,
} from '@synchro/contracts';
import { asDocument, parseConfig, type ConfigDocument } from '../document.ts';
import { insertEmptySection, SectionEditor, validatePayload } from '../edit/editor.ts';
import { ORDER } from '../edit/sections.ts';
import { ConfigXmlError } from '../errors.ts';
import { escapeText } from '../xml/escape.ts';
import { checkSize } from '../xml/scan.ts';
import { childNamed, childrenNamed, serialize, touch, xmlText, XText, type XElement } from '../xml/tree.ts';
import { checkData } from './data.ts';

/**
 * The nodes the connector owns and writes through PATCH /api/connector/v1/configuration. No
 * console edit writes them and none of the console's conflict scopes (editScope) contains them,
 * so a connector write and an administrator's save never conflict and never lose each other.
 */
export const CONNECTOR_OWNED = [
  'Info/*',
  'DerSynchro/*',
  'Sources/Source/Status',
  'Sources/Source/StatusLibelle',
  'Data',
] as const;

/** Legacy order of the children the connector writes (new ones go to their place). */
export const CONNECTOR_ORDER = {
  Info: ['Exe', 'Serial', 'NuxiAutomateInstall', 'NuxiAutomateLibelle', 'DateMAJConfig', 'VersionConnecteur'],
  DerSynchro: [
    'TypeDeSync',
    'DateHeure',
    'Duree',
    'DureeAlerte',
    'NbEnreg',
    'Vitesse',
    'Taille',
    'TailleAlerte',
  ],
} as const;

interface Replacement {
  start: number;
  end: number;
  text: string;
}

/**
 * The connector's write to its own parts of the configuration (its PATCH), through the lossless
 * splice: `Info/*` and `DerSynchro/*` children set to the given texts (created at their legacy
 * place, or last for a name the legacy order lacks); `Status` and `StatusLibelle` of the
 * `Source` at each 1-based `index`; `Data` replaced as a whole. Values are already in the
 * connector's text convention: written as they are, escaped once, never re-encoded. A node that
 * already holds the given text is not rewritten, so a patch that changes nothing returns the text
 * unchanged. Refused before any change (ConfigXmlError): an invalid patch (`invalid-payload`),
 * a source index beyond the stored sources (`source-index`), a `Data` that is not one safe
 * `<Data>` element (codes of the scanner, message starting `Data :`).
 */
export function editConnectorParts(
  input: string | ConfigDocument,
  patch: TConnectorConfigPatchInput | TConnectorConfigPatch,
): string {
  const p = validatePayload(ZConnectorConfigPatch, patch);
  const original = asDocument(input);
  // The schema has checked the Data's size (the same rule as checkDataElement's).
  const data = p.Data === undefined ? null : checkData(p.Data, original, true);
  checkSourceIndexes(original, p.Sources ?? []);

  const info = Object.entries(p.Info ?? {});
  const lastSync = Object.entries(p.DerSynchro ?? {});
  const dataChanges = data !== null && original.sectionText('Data') !== data;

  // Sections to create first (at their legacy place), then every edit works on one document.
  let doc = original;
  const create = (name: string, needed: boolean): void => {
    if (needed && !doc.range(name)) doc = parseConfig(insertEmptySection(doc, name), { maxBytes: Infinity });
  };
  create('Info', info.length > 0);
  create('DerSynchro', lastSync.length > 0);
  create('Data', dataChanges);

  const replacements: Replacement[] = [];
  const edited = (ed: SectionEditor): void => {
    if (!ed.section.dirty) return;
    const r = doc.range(ed.section.name);
    if (r) replacements.push({ start: r.start, end: r.end, text: serialize(ed.section, ed.src) });
  };
  if (info.length > 0) edited(setChildren(doc, 'Info', info, CONNECTOR_ORDER.Info));
  if (lastSync.length > 0) edited(setChildren(doc, 'DerSynchro', lastSync, CONNECTOR_ORDER.DerSynchro));
  if (p.Sources !== undefined && p.Sources.length > 0) edited(setSourceStatuses(doc, p.Sources));
  if (dataChanges) {
    const r = doc.range('Data');
    if (r && doc.text.slice(r.start, r.end) !== data)
      replacements.push({ start: r.start, end: r.end, text: data });
  }

  if (replacements.length === 0 && doc === original) return original.text;
  replacements.sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let at = 0;
  for (const r of replacements) {
    parts.push(doc.text.slice(at, r.start), r.text);
    at = r.end;
  }
  parts.push(doc.text.slice(at));
  const result = parts.join('');
  // A well-formed Data in place of an element keeps the document well-formed (its depth was
  // checked for its place); the document must still fit its size limit.
  if (dataChanges) checkSize(result);
  return result;
}

function checkSourceIndexes(
  doc: ConfigDocument,
  sources: NonNullable<TConnectorConfigPatch['Sources']>,
): void {
  if (sources.length === 0) return;
  const ix = doc.index;
  const count = ix.children(ix.child(0, 'Sources'), 'Source').length;
  sources.forEach((s, i) => {
    if (s.index > count) {
      throw new ConfigXmlError(
        'source-index',
        `Sources[${i}].index\u00a0: la source ${s.index} n’existe pas (la configuration en compte ${count}).`,
      );
    }
  });
}

/** Markup of a text already in the connector's convention: escaped once, never re-encoded. */
function rawTextNode(ed: SectionEditor, el: XElement, value: string): XText[] {
  if (value === '') return [];
  const node = new XText(-1, -1, escapeText(value, ed.src.newline));
  node.parent = el;
  return [node];
}

/** Sets the child `name` of `parent` to `value` unless it already holds it; creates it when missing. */
function setRawValue(
  ed: SectionEditor,
  parent: XElement,
  name: string,
  value: string,
  order: readonly string[],
): void {
  const el = childNamed(parent, name);
  if (el) {
    if (xmlText(el) === value) return;
    el.children = rawTextNode(ed, el, value);
    touch(el);
    return;
  }
  const created = ed.el(name);
  created.children = rawTextNode(ed, created, value);
  ed.insertOrdered(parent, created, order); // marks it and its ancestors changed
}

function setChildren(
  doc: ConfigDocument,
  section: 'Info' | 'DerSynchro',
  values: [string, string][],
  order: readonly string[],
): SectionEditor {
  const ed = SectionEditor.open(doc, section, 1);
  for (const [name, value] of values) setRawValue(ed, ed.section, name, value, order);
  return ed;
}

function setSourceStatuses(
  doc: ConfigDocument,
  sources: NonNullable<TConnectorConfigPatch['Sources']>,
): SectionEditor {
  const ed = SectionEditor.open(doc, 'Sources', 1);
  const stored = childrenNamed(ed.section, 'Source');
  for (const s of sources) {
    const source = stored[s.index - 1];
    if (!source) continue; // checked before: cannot happen
    if (s.Status !== undefined) setRawValue(ed, source, 'Status', s.Status, ORDER.Source);
    if (s.StatusLibelle !== undefined)
      setRawValue(ed, source, 'StatusLibelle', s.StatusLibelle, ORDER.Source);
  }
  return ed;
}
