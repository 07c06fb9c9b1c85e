import type {
  TAgendaItem,
  TDataLists,
  TDepot,
  TEmployee,
  TFamily,
  TGlobalAuthorizations,
} from '@synchro/contracts';
import type { ConfigDocument } from '../document.ts';
import type { ElementIndex } from '../xml/index.ts';
import { rootSection as sectionOf, textOf } from './ix-values.ts';

/** The Data lists (employees, technicians, agendas, depots, families) and the global feature list. */

export function employeesOf(ix: ElementIndex, list: number, item: string): TEmployee[] {
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

export function agendasOf(ix: ElementIndex, data: number): TAgendaItem[] {
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
