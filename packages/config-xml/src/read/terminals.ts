import { TERMINAL_FREE_NAME, type TTerminalView, type TTerminalsView } from '@synchro/contracts';
import type { ConfigDocument } from '../document.ts';
import type { ElementIndex } from '../xml/index.ts';
import { storedGlobalAuthorizations } from './data-lists.ts';
import { rootSection as sectionOf, textOf, textOfId } from './ix-values.ts';

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

function terminalFrom(
  ix: ElementIndex,
  t: number,
  xmlIndex: number,
  displayName: string,
  global: readonly { ID: string; Libelle: string }[],
  names: TAuthorizationNames,
): TTerminalView {
  const filtres = ix.child(t, 'Filtres');
  const ID_Tablette = textOf(ix, t, 'ID_Tablette').trim();
  const ID_Smartphone = textOf(ix, t, 'ID_Smartphone').trim();
  const values = new Map<string, -1 | 0 | 1>();
  const list = ix.childWithId(t, names.list);
  for (let a = list < 0 ? -1 : ix.firstChild(list); a !== -1; a = ix.nextSibling[a] as number) {
    if (ix.nameId[a] !== names.item) continue;
    const id = textOfId(ix, a, names.id).trim();
    if (id === '' || values.has(id)) continue;
    const autorise = ix.childWithId(a, names.autorise);
    values.set(id, autoriseValue(autorise < 0 ? null : ix.value(autorise)));
  }
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
    authorizations: global.map((g) => ({ ID: g.ID, Libelle: g.Libelle, Autorise: values.get(g.ID) ?? 0 })),
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
  const authorizationNames: TAuthorizationNames = {
    list: ix.idOf('Autorisations'),
    item: ix.idOf('Autorisation'),
    id: ix.idOf('ID'),
    autorise: ix.idOf('Autorise'),
  };
  return {
    terminals: list.map((t, i) => terminalFrom(ix, t, i, names[i] as string, global, authorizationNames)),
  };
}
