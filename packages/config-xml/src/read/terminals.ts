import { TERMINAL_FREE_NAME, type TTerminalView, type TTerminalsView } from '@synchro/contracts';
import type { ConfigDocument } from '../document.ts';
import type { ElementIndex } from '../xml/index.ts';
import { storedGlobalAuthorizations } from './data-lists.ts';
import { rootSection as sectionOf, textOf, trimmedValueIs } from './ix-values.ts';

/** Autorise value as the view shows it: 1, -1, or 0 for anything else. */
export function autoriseValue(v: string | null): -1 | 0 | 1 {
  const t = (v ?? '').trim();
  return t === '1' ? 1 : t === '-1' ? -1 : 0;
}

/** Interned ids of the names read in every terminal's authorisations, looked up once. */
interface TAuthorizationNames {
  list: number;
  item: number;
  id: number;
  autorise: number;
}

/** What readTerminals keeps from one terminal to the next, to read the authorisations in place. */
interface TAuthorizationContext {
  global: readonly { ID: string; Libelle: string }[];
  /** Position in `global` of each global ID. */
  position: Map<string, number>;
  /**
   * Position in `global` of the ID found at each place of the previous terminal's list: terminals
   * mostly list the same IDs in the same order, so the ID at a place is first compared in place
   * with that one (no string cut, no lookup), and read as a string only when it differs.
   */
  atPlace: number[];
}

/** autoriseValue of the element's value, decided in place when it is plain (null otherwise). */
function plainAutorise(ix: ElementIndex, el: number): -1 | 0 | 1 | null {
  const one = trimmedValueIs(ix, el, '1');
  if (one === null) return null;
  if (one) return 1;
  return trimmedValueIs(ix, el, '-1') ? -1 : 0;
}

/**
 * The Autorise value of each global ID in a terminal's list, as a map from ID to value (the first
 * entry of an ID wins, a missing Autorise is 0) would give it: IDs that are not global are never
 * shown, so only global ones are kept, by position.
 */
function terminalAuthorizations(
  ix: ElementIndex,
  list: number,
  names: TAuthorizationNames,
  context: TAuthorizationContext,
): { ID: string; Libelle: string; Autorise: -1 | 0 | 1 }[] {
  const { global, position, atPlace } = context;
  /** 0: not seen yet; else the value + 2. */
  const values = new Int8Array(global.length);
  let place = 0;
  for (let a = list < 0 ? -1 : ix.firstChild(list); a !== -1; a = ix.nextSibling[a] as number) {
    if (ix.nameId[a] !== names.item) continue;
    const idElement = ix.childWithId(a, names.id);
    const guess = place < atPlace.length ? (atPlace[place] as number) : -1;
    let at = -1;
    if (guess >= 0 && trimmedValueIs(ix, idElement, (global[guess] as { ID: string }).ID) === true)
      at = guess;
    else {
      const id = idElement < 0 ? '' : ix.value(idElement).trim();
      if (id !== '') at = position.get(id) ?? -1;
    }
    atPlace[place] = at;
    place += 1;
    if (at < 0 || values[at] !== 0) continue;
    const autorise = ix.childWithId(a, names.autorise);
    const value = autorise < 0 ? 0 : (plainAutorise(ix, autorise) ?? autoriseValue(ix.value(autorise)));
    values[at] = value + 2;
  }
  return global.map((g, i) => {
    const v = values[i] as number;
    return { ID: g.ID, Libelle: g.Libelle, Autorise: v === 0 ? 0 : ((v - 2) as -1 | 0 | 1) };
  });
}

function terminalFrom(
  ix: ElementIndex,
  t: number,
  xmlIndex: number,
  displayName: string,
  context: TAuthorizationContext,
  names: TAuthorizationNames,
): TTerminalView {
  const filtres = ix.child(t, 'Filtres');
  const ID_Tablette = textOf(ix, t, 'ID_Tablette').trim();
  const ID_Smartphone = textOf(ix, t, 'ID_Smartphone').trim();
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
    authorizations: terminalAuthorizations(ix, ix.childWithId(t, names.list), names, context),
  };
}

/**
 * Terminaux/Terminal as the spec's parsed terminal (docs/spec-notes.md, Exclusions, agendas,
 * schedule, terminals).
 */
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
  const global = storedGlobalAuthorizations(doc).authorizations;
  const context: TAuthorizationContext = {
    global,
    position: new Map(global.map((g, i) => [g.ID, i])),
    atPlace: [],
  };
  const authorizationNames: TAuthorizationNames = {
    list: ix.idOf('Autorisations'),
    item: ix.idOf('Autorisation'),
    id: ix.idOf('ID'),
    autorise: ix.idOf('Autorise'),
  };
  return {
    terminals: list.map((t, i) => terminalFrom(ix, t, i, names[i] as string, context, authorizationNames)),
  };
}
