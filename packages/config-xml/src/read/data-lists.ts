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
import { rootSection as sectionOf, textOf, textOfId, trimmedValueIs } from './ix-values.ts';

/** The Data lists (employees, technicians, agendas, depots, families) and the global feature list. */

export function employeesOf(ix: ElementIndex, list: number, item: string): TEmployee[] {
  const out: TEmployee[] = [];
  const [idInterne, nom, prenom] = [ix.idOf('IDInterne'), ix.idOf('Nom'), ix.idOf('Prenom')];
  for (const e of ix.children(list, item)) {
    const IDInterne = textOfId(ix, e, idInterne).trim();
    if (IDInterne === '') continue;
    out.push({ IDInterne, Nom: textOfId(ix, e, nom), Prenom: textOfId(ix, e, prenom) });
  }
  return out;
}

function depotsOf(ix: ElementIndex, data: number): TDepot[] {
  const out: TDepot[] = [];
  const [idInterne, code, libelle] = [ix.idOf('IDInterne'), ix.idOf('Code'), ix.idOf('Libelle')];
  for (const d of ix.children(ix.child(data, 'CMB_STOCK_DEPOT'), 'DEPOT')) {
    const IDInterne = textOfId(ix, d, idInterne).trim();
    if (IDInterne === '') continue;
    out.push({ IDInterne, Code: textOfId(ix, d, code), Libelle: textOfId(ix, d, libelle) });
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
  const idFamille = ix.idOf('IDFamille');
  const idInterne = ix.idOf('IDInterne');
  const libelleFamille = ix.idOf('LibelleFamille');
  const libelle = ix.idOf('Libelle');
  for (const row of ix.children(list, item)) {
    let fam = textOfId(ix, row, idFamille).trim();
    let sub = textOfId(ix, row, idInterne).trim();
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
      family = { id: `${fam}|`, libelle: textOfId(ix, row, libelleFamille), subFamilies: [] };
      families.set(fam, family);
    } else if (family.libelle === '') family.libelle = textOfId(ix, row, libelleFamille);
    if (sub !== '') {
      const id = `${fam}|${sub}`;
      if (!subSeen.has(id)) {
        subSeen.add(id);
        family.subFamilies.push({ id, libelle: textOfId(ix, row, libelle) });
      }
    }
  }
  return [...families.values()];
}

/** A copy of an employee list (the memo's own objects are never handed out). */
function copyEmployees(list: readonly TEmployee[]): TEmployee[] {
  return list.map((e) => ({ IDInterne: e.IDInterne, Nom: e.Nom, Prenom: e.Prenom }));
}

/**
 * Data/CMB_SALARIES/SALARIES or Data/CMB_TECHNICIENS/TECHNICIENS, read once per document (the
 * Data lists and the external calendars both show them). Read-only: copy before returning it.
 */
export function storedEmployees(doc: ConfigDocument, kind: 'SALARIES' | 'TECHNICIENS'): readonly TEmployee[] {
  return doc.memo(`employees:${kind}`, () => {
    const ix = doc.index;
    return employeesOf(ix, ix.child(sectionOf(ix, 'Data'), `CMB_${kind}`), kind);
  });
}

export function readDataLists(doc: ConfigDocument): TDataLists {
  const ix = doc.index;
  const data = sectionOf(ix, 'Data');
  return {
    salaries: copyEmployees(storedEmployees(doc, 'SALARIES')),
    techniciens: copyEmployees(storedEmployees(doc, 'TECHNICIENS')),
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
  const stored = storedGlobalAuthorizations(doc);
  return {
    authorizations: stored.authorizations.map((a) => ({ ID: a.ID, Libelle: a.Libelle })),
    from: stored.from,
  };
}

/** The global feature list, read once per document (every terminal view needs it). Read-only. */
export function storedGlobalAuthorizations(doc: ConfigDocument): Readonly<TGlobalAuthorizations> {
  return doc.memo('global-authorizations', () => globalAuthorizations(doc));
}

function globalAuthorizations(doc: ConfigDocument): TGlobalAuthorizations {
  const ix = doc.index;
  const seen = new Set<string>();
  const authorizations: { ID: string; Libelle: string }[] = [];
  const [id, libelle] = [ix.idOf('ID'), ix.idOf('Libelle')];
  /** Adds the authorisation `a` when its ID is new; returns its ID. */
  const add = (a: number): string => {
    const ID = textOfId(ix, a, id).trim();
    if (ID === '' || seen.has(ID)) return ID;
    seen.add(ID);
    authorizations.push({ ID, Libelle: textOfId(ix, a, libelle) });
    return ID;
  };
  for (const a of ix.children(ix.path(sectionOf(ix, 'Data'), 'Autorisations'), 'Autorisation')) add(a);
  if (authorizations.length > 0) return { authorizations, from: 'data' };
  const [autorisations, autorisation] = [ix.idOf('Autorisations'), ix.idOf('Autorisation')];
  // The ID seen at each place of the previous terminal's list (already in `seen`): terminals
  // mostly list the same IDs in the same order, so an ID equal to it (compared in place) is known
  // without cutting it from the text.
  const atPlace: string[] = [];
  for (const t of ix.children(sectionOf(ix, 'Terminaux'), 'Terminal')) {
    const list = ix.childWithId(t, autorisations);
    if (list < 0) continue;
    let place = 0;
    for (let a = ix.firstChild(list); a !== -1; a = ix.nextSibling[a] as number) {
      if (ix.nameId[a] !== autorisation) continue;
      const known = place < atPlace.length ? (atPlace[place] as string) : '';
      if (known === '' || trimmedValueIs(ix, ix.childWithId(a, id), known) !== true) atPlace[place] = add(a);
      place += 1;
    }
  }
  return { authorizations, from: 'terminals' };
}
