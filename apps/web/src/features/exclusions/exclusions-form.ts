import type {
  TExclusion,
  TExclusionType,
  TExclusionsPayload,
  TExclusionsView,
  TFamily,
} from '@synchro/contracts';

/** The three columns of the screen (docs/spec-notes.md, Web: Exclusions) and the family list each one shows. */
export const EXCLUSION_COLUMNS: readonly {
  type: TExclusionType;
  title: string;
  list: 'famillesArticles' | 'famillesClients' | 'famillesFournisseurs';
}[] = [
  { type: 'ItemFamily', title: 'Famille articles', list: 'famillesArticles' },
  { type: 'CustomerFamily', title: 'Famille clients', list: 'famillesClients' },
  { type: 'SupplierFamily', title: 'Famille fournisseurs', list: 'famillesFournisseurs' },
];

export type Family = TFamily;
export type SubFamily = TFamily['subFamilies'][number];

/**
 * The checked boxes, sorted (type, id) so that checking then unchecking a box gives back the same
 * form. Sub-families checked under a checked family stay here (their own state, shown again when
 * the family is unchecked) but are not sent.
 */
export type ExclusionsForm = TExclusion[];

const TYPE_ORDER: Record<TExclusionType, number> = { ItemFamily: 0, CustomerFamily: 1, SupplierFamily: 2 };

export const exclusionKey = (type: TExclusionType, id: string) => `${type}\u0000${id}`;

/** `family|` for `family|sub` (and for `family|`). */
export const familyIdOf = (id: string) => `${id.split('|')[0] ?? ''}|`;

export const isFamilyId = (id: string) => id.endsWith('|');

function normalise(list: TExclusion[]): ExclusionsForm {
  const seen = new Set<string>();
  const out: ExclusionsForm = [];
  for (const x of list) {
    const key = exclusionKey(x.type, x.id);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ id: x.id, libelle: x.libelle, type: x.type });
  }
  return out.sort(
    (a, b) => TYPE_ORDER[a.type] - TYPE_ORDER[b.type] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

export const toExclusionsForm = (view: TExclusionsView): ExclusionsForm => normalise(view.exclusions);

/** What is stored: a checked family stands for its sub-families, which are left out. */
function storedExclusions(form: ExclusionsForm): TExclusion[] {
  const families = new Set(form.filter((x) => isFamilyId(x.id)).map((x) => exclusionKey(x.type, x.id)));
  return form
    .filter((x) => isFamilyId(x.id) || !families.has(exclusionKey(x.type, familyIdOf(x.id))))
    .map(({ id, libelle, type }) => ({ id, libelle, type }));
}

/** POST /api/database/exclusions: a checked family sends only `family|`, not its subs. */
export const toExclusionsPayload = (form: ExclusionsForm): TExclusionsPayload => ({
  exclusions: storedExclusions(form),
});

export const toExclusionsView = (form: ExclusionsForm): TExclusionsView => ({
  exclusions: storedExclusions(form),
});

/** Checks or unchecks one box: a family (`family|`) or a sub-family (`family|sub`). */
export function setExcluded(form: ExclusionsForm, exclusion: TExclusion, checked: boolean): ExclusionsForm {
  const rest = form.filter((x) => !(x.type === exclusion.type && x.id === exclusion.id));
  return checked ? normalise([...rest, exclusion]) : rest;
}

/** The stored label of a sub-family exclusion: family and sub-family, tab-separated (as the connector writes it). */
export const subExclusionLibelle = (family: Family, sub: SubFamily) => `${family.libelle}\t${sub.libelle}`;

/** Case- and accent-insensitive text for the filter boxes. */
export const searchText = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();

export interface VisibleFamily {
  family: Family;
  /** The sub-families to show when the family is open (all, or those matching the filter). */
  subFamilies: SubFamily[];
  /** Shown open because only some of its sub-families match the filter. */
  openedByFilter: boolean;
}

/** The searchable text of each family and sub-family, computed once per list. */
export interface FamilyIndex {
  family: Family;
  text: string;
  subTexts: string[];
}

export const indexFamilies = (families: readonly Family[]): FamilyIndex[] =>
  families.map((family) => ({
    family,
    text: searchText(`${family.libelle} ${family.id}`),
    subTexts: family.subFamilies.map((s) => searchText(`${s.libelle} ${s.id}`)),
  }));

/** The families a filter keeps: by name or code of the family, or of one of its sub-families. */
export function filterFamilies(index: readonly FamilyIndex[], filter: string): VisibleFamily[] {
  const q = searchText(filter);
  if (q === '')
    return index.map(({ family }) => ({ family, subFamilies: family.subFamilies, openedByFilter: false }));
  const out: VisibleFamily[] = [];
  for (const { family, text, subTexts } of index) {
    if (text.includes(q)) {
      out.push({ family, subFamilies: family.subFamilies, openedByFilter: false });
      continue;
    }
    const subs = family.subFamilies.filter((_, i) => subTexts[i]?.includes(q));
    if (subs.length > 0) out.push({ family, subFamilies: subs, openedByFilter: true });
  }
  return out;
}

/** Exclusions of a type whose id is in none of the lists (kept as they are on save). */
export function unlistedCount(
  form: ExclusionsForm,
  type: TExclusionType,
  families: readonly Family[],
): number {
  const known = new Set<string>();
  for (const f of families) {
    known.add(f.id);
    for (const s of f.subFamilies) known.add(s.id);
  }
  return form.filter((x) => x.type === type && !known.has(x.id)).length;
}
