import { TERMINAL_FREE_NAME, type TTerminalView, type TTerminalsView } from '@synchro/contracts';
import type { ConfigDocument } from '../document.ts';
import type { ElementIndex } from '../xml/index.ts';
import { readGlobalAuthorizations } from './data-lists.ts';
import { rootSection as sectionOf, textOf } from './ix-values.ts';

/** Autorise value as the view shows it: 1, -1, or 0 for anything else. */
export function autoriseValue(v: string | null): -1 | 0 | 1 {
  const t = (v ?? '').trim();
  return t === '1' ? 1 : t === '-1' ? -1 : 0;
}

function terminalFrom(
  ix: ElementIndex,
  t: number,
  xmlIndex: number,
  displayName: string,
  global: { ID: string; Libelle: string }[],
): TTerminalView {
  const filtres = ix.child(t, 'Filtres');
  const ID_Tablette = textOf(ix, t, 'ID_Tablette').trim();
  const ID_Smartphone = textOf(ix, t, 'ID_Smartphone').trim();
  const values = new Map<string, -1 | 0 | 1>();
  for (const a of ix.children(ix.child(t, 'Autorisations'), 'Autorisation')) {
    const id = textOf(ix, a, 'ID').trim();
    if (id !== '' && !values.has(id)) values.set(id, autoriseValue(ix.childValue(a, 'Autorise')));
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
  const global = readGlobalAuthorizations(doc).authorizations;
  return { terminals: list.map((t, i) => terminalFrom(ix, t, i, names[i] as string, global)) };
}
