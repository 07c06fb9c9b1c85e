import {
  ZExclusionsPayload,
  type TExclusionType,
  type TExclusionsPayload,
  type TFamily,
} from '@synchro/contracts';
import type { ConfigDocument } from '../document.ts';
import { readDataLists } from '../read/data-lists.ts';
import { EXCLUSION_TYPES, exclusionId } from '../read/readers.ts';
import { textOf } from '../read/values.ts';
import { childNamed, childrenNamed, type XElement } from '../xml/tree.ts';
import { SectionEditor, validatePayload } from './editor.ts';
import { ORDER } from './sections.ts';

/**
 * Exclusions: the payload is the whole list of the three family types. For each type, stored
 * Valeur entries still wanted stay where they are (their Libelle updated if it changed), the others
 * are removed, and new ones are added after them (Code and IDInterne = the id). Exclusions of other
 * types (NuxiSavOnLine) stay. The first of duplicate ids wins. An entry sent without a label gets
 * the family's label from the Data lists; when they do not have it either, a stored Libelle stays
 * and a new entry is written with an empty one.
 */
export function editExclusions(input: string | ConfigDocument, payload: TExclusionsPayload): string {
  const p = validatePayload(ZExclusionsPayload, payload);
  const ed = SectionEditor.open(input, 'Exclusions');
  const exclusions = childrenNamed(ed.section, 'Exclusion');
  const typeOf = (ex: XElement): string => textOf(ex, 'Type').trim();
  const labels = p.exclusions.some((x) => x.libelle === undefined) ? familyLabels(ed.doc) : null;
  for (const type of EXCLUSION_TYPES) {
    const wanted = new Map<string, string | undefined>();
    for (const x of p.exclusions) {
      if (x.type === type && !wanted.has(x.id)) wanted.set(x.id, x.libelle ?? labels?.[type].get(x.id));
    }
    const ofType = exclusions.filter((ex) => typeOf(ex) === type);
    const kept = new Set<string>();
    const removed: XElement[] = [];
    let lastValeur: XElement | undefined;
    for (const ex of ofType) {
      for (const v of childrenNamed(childNamed(ex, 'Valeurs'), 'Valeur')) {
        const id = exclusionId(textOf(v, 'IDInterne') || textOf(v, 'Code'));
        if (wanted.has(id) && !kept.has(id)) {
          kept.add(id);
          const libelle = wanted.get(id);
          if (libelle !== undefined) ed.setValue(v, 'Libelle', libelle, ORDER.Valeur);
          if (ex === ofType[0]) lastValeur = v;
        } else removed.push(v);
      }
    }
    // In one pass per Valeurs (tens of thousands of families: one scan each would be quadratic).
    ed.removeAll(removed);
    const added = [...wanted].filter(([id]) => !kept.has(id));
    if (added.length === 0) continue;
    let ex = ofType[0];
    if (!ex) {
      ex = ed.el('Exclusion', [ed.el('Type', type), ed.el('Valeurs', [])]);
      insertExclusion(ed, ex, type);
    }
    const valeurs = ed.ensure(ex, 'Valeurs', ORDER.Exclusion);
    lastValeur ??= childrenNamed(valeurs, 'Valeur').at(-1);
    const fresh = added.map(([id, libelle]) =>
      ed.el('Valeur', [ed.el('Code', id), ed.el('IDInterne', id), ed.el('Libelle', libelle ?? '')]),
    );
    ed.insertAll(valeurs, fresh, lastValeur ? { after: lastValeur } : {});
  }
  return ed.finish();
}

/**
 * The label of every family and sub-family id of the Data lists, by exclusion type, written as
 * the console writes it: a sub-family's is `family label<TAB>sub-family label`.
 */
function familyLabels(doc: ConfigDocument): Record<TExclusionType, Map<string, string>> {
  const lists = readDataLists(doc);
  const byId = (families: TFamily[]): Map<string, string> => {
    const map = new Map<string, string>();
    for (const f of families) {
      map.set(f.id, f.libelle);
      for (const sub of f.subFamilies) map.set(sub.id, `${f.libelle}\t${sub.libelle}`);
    }
    return map;
  };
  return {
    ItemFamily: byId(lists.famillesArticles),
    CustomerFamily: byId(lists.famillesClients),
    SupplierFamily: byId(lists.famillesFournisseurs),
  };
}

/** Places a new Exclusion after those of the earlier family types, before the others. */
function insertExclusion(ed: SectionEditor, ex: XElement, type: TExclusionType): void {
  const rank = (e: XElement): number => {
    const r = EXCLUSION_TYPES.indexOf(textOf(e, 'Type').trim() as TExclusionType);
    return r < 0 ? EXCLUSION_TYPES.length : r;
  };
  const mine = EXCLUSION_TYPES.indexOf(type);
  const all = childrenNamed(ed.section, 'Exclusion');
  const before = all.filter((e) => rank(e) < mine).at(-1);
  if (before) return void ed.insert(ed.section, ex, { after: before });
  const after = all.find((e) => rank(e) > mine);
  ed.insert(ed.section, ex, after ? { before: after } : {});
}
