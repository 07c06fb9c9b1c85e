import { TERMINAL_FREE_NAME, ZTerminalInput, type TTerminalInput } from '@synchro/contracts';
import type { ConfigDocument } from '../document.ts';
import { ConfigXmlError } from '../errors.ts';
import { autoriseValue } from '../read/terminals.ts';
import { textOf as ixText } from '../read/ix-values.ts';
import { textOf, valueOf } from '../read/values.ts';
import type { ElementIndex } from '../xml/index.ts';
import { childNamed, childrenNamed, pathNamed, type XElement } from '../xml/tree.ts';
import { SectionEditor, validatePayload } from './editor.ts';

export const TERMINAL_ORDER = ['Nom', 'ID_Tablette', 'ID_Smartphone', 'Filtres', 'Autorisations'] as const;
const FILTRES_ORDER = ['Techniciens', 'Depots', 'Commerciaux'] as const;
const REF_ORDER = ['IDInterne', 'Code', 'Libelle'] as const;
const AUTORISATION_ORDER = ['ID', 'Autorise', 'Libelle'] as const;
const AUTORISATIONS_ORDER = ['Autorisation', 'Autorisation_Longue'] as const;
/** Autorisation_Longue has at least this many slots (100 in real documents). */
export const AUTORISATION_LONGUE_MIN = 100;
const AUTORISATION_LONGUE_MAX = 1000;

interface Reference {
  Code: string;
  Libelle: string;
}

/** The Data lists an id change needs, read from the element index when first asked for. */
class DataLookup {
  private readonly ix: ElementIndex;
  private readonly data: number;
  private readonly cache = new Map<string, Map<string, Reference>>();
  constructor(doc: ConfigDocument) {
    this.ix = doc.index;
    this.data = this.ix.child(0, 'Data');
  }

  private list(path: string, item: string, label: (e: number) => string): Map<string, Reference> {
    let map = this.cache.get(path);
    if (map) return map;
    const ix = this.ix;
    map = new Map();
    for (const e of ix.children(ix.child(this.data, path), item)) {
      const id = ixText(ix, e, 'IDInterne').trim();
      if (id === '' || map.has(id)) continue;
      const code = ix.childValue(e, 'Code');
      map.set(id, { Code: code !== null && code.trim() !== '' ? code : id, Libelle: label(e) });
    }
    this.cache.set(path, map);
    return map;
  }

  private person = (e: number): string =>
    `${ixText(this.ix, e, 'Nom').trim()} ${ixText(this.ix, e, 'Prenom').trim()}`.trim();

  technicien(id: string): Reference | undefined {
    return this.list('CMB_TECHNICIENS', 'TECHNICIENS', this.person).get(id);
  }
  salarie(id: string): Reference | undefined {
    return this.list('CMB_SALARIES', 'SALARIES', this.person).get(id);
  }
  depot(id: string): Reference | undefined {
    return this.list('CMB_STOCK_DEPOT', 'DEPOT', (e) => ixText(this.ix, e, 'Libelle')).get(id);
  }
}

function unknown(what: string, id: string): ConfigXmlError {
  return new ConfigXmlError(
    'unknown-reference',
    `${what} « ${id} » est introuvable dans les listes de la configuration.`,
  );
}

/**
 * One terminal (`index`: 0-based position among Terminaux/Terminal, the view's xmlIndex).
 *
 * - Nom, ID_Tablette, ID_Smartphone; a name equal to the one the view showed ('Libre' included)
 *   leaves the stored name alone.
 * - Default technician and depot: when the id changes, its Code and Libelle follow from the Data
 *   lists (TECHNICIENS: Code = id, Libelle = 'NOM Prénom'; DEPOT: its Code and Libelle); '' clears
 *   all three. An id not in the lists is refused.
 * - Commerciaux: the stored ones still chosen stay as they are (their Code too); the others are
 *   removed; new ones are added with Code and Libelle from the salariés list.
 * - Autorisations: each Autorise is updated where it differs; an entry the terminal lacks is added
 *   unless its value is 0 (missing means 0). Autorisation_Longue follows: slot ID-1 of the
 *   `|`-joined list holds the Autorise of the entry with that ID (the layout of real documents).
 *
 * Only the terminal being edited is parsed; the rest of Terminaux is copied as it is.
 */
export function editTerminal(
  input: string | ConfigDocument,
  index: number,
  terminal: TTerminalInput,
): string {
  const p = validatePayload(ZTerminalInput, terminal);
  if (!Number.isInteger(index) || index < 0) throw badIndex();
  const ed = SectionEditor.open(input, 'Terminaux', 0);
  const terminals = childrenNamed(ed.section, 'Terminal');
  const t = terminals[index];
  if (!t) throw badIndex();

  // Name: compare with what the view showed for this terminal.
  const stored = textOf(t, 'Nom');
  let shown = stored.trim() === '' ? TERMINAL_FREE_NAME : stored;
  if (p.Nom !== stored && p.Nom === TERMINAL_FREE_NAME && shown !== TERMINAL_FREE_NAME) {
    const key = stored.trim();
    if (terminals.slice(0, index).some((o) => textOf(o, 'Nom').trim() === key)) shown = TERMINAL_FREE_NAME;
  }
  if (p.Nom !== shown) ed.setValue(t, 'Nom', p.Nom, TERMINAL_ORDER);
  ed.setTrimmed(t, 'ID_Tablette', p.ID_Tablette, TERMINAL_ORDER);
  ed.setTrimmed(t, 'ID_Smartphone', p.ID_Smartphone, TERMINAL_ORDER);

  const data = new DataLookup(ed.doc);
  // Default technician and depot.
  const single = (
    group: string,
    item: string,
    id: string,
    find: (id: string) => Reference | undefined,
    what: string,
  ): void => {
    const filtres = childNamed(t, 'Filtres');
    const el = pathNamed(filtres, `${group}/${item}`);
    const current = el ? textOf(el, 'IDInterne').trim() : '';
    if (current === id) return;
    let ref: Reference = { Code: '', Libelle: '' };
    if (id !== '') {
      const found = find(id);
      if (!found) throw unknown(what, id);
      ref = found;
    }
    const target =
      el ?? ed.ensure(ed.ensure(ed.ensure(t, 'Filtres', TERMINAL_ORDER), group, FILTRES_ORDER), item, []);
    ed.setValue(target, 'IDInterne', id, REF_ORDER);
    ed.setValue(target, 'Code', ref.Code, REF_ORDER);
    ed.setValue(target, 'Libelle', ref.Libelle, REF_ORDER);
  };
  single('Techniciens', 'Technicien', p.technicienId, (id) => data.technicien(id), 'Le technicien');
  single('Depots', 'Depot', p.depotId, (id) => data.depot(id), 'Le dépôt');

  // Commerciaux.
  const wanted = new Map<string, string>();
  for (const c of p.commerciaux)
    if (!wanted.has(c.IDInterne.trim())) wanted.set(c.IDInterne.trim(), c.Libelle);
  const list = pathNamed(t, 'Filtres/Commerciaux');
  const kept = new Set<string>();
  const removed: XElement[] = [];
  let last: XElement | undefined;
  for (const c of childrenNamed(list, 'Commercial')) {
    const id = textOf(c, 'IDInterne').trim();
    if (id === '') continue; // the connector's empty placeholder
    if (wanted.has(id) && !kept.has(id)) {
      kept.add(id);
      last = c;
    } else removed.push(c);
  }
  ed.removeAll(removed);
  const added = [...wanted.keys()].filter((id) => !kept.has(id));
  if (added.length > 0) {
    const group = list ?? ed.ensure(ed.ensure(t, 'Filtres', TERMINAL_ORDER), 'Commerciaux', FILTRES_ORDER);
    last ??= childrenNamed(group, 'Commercial').at(-1);
    const fresh = added.map((id) => {
      const ref = data.salarie(id);
      if (!ref) throw unknown('Le commercial', id);
      return ed.el('Commercial', [
        ed.el('IDInterne', id),
        ed.el('Code', ref.Code),
        ed.el('Libelle', ref.Libelle),
      ]);
    });
    ed.insertAll(group, fresh, last ? { after: last } : {});
  }

  // Autorisations.
  let auths = childNamed(t, 'Autorisations');
  const byId = new Map<string, XElement>();
  for (const a of childrenNamed(auths, 'Autorisation')) {
    const id = textOf(a, 'ID').trim();
    if (id !== '' && !byId.has(id)) byId.set(id, a);
  }
  let changed = false;
  const lastAuth = childrenNamed(auths, 'Autorisation').at(-1);
  const addedAuths: XElement[] = [];
  for (const a of p.authorizations) {
    const id = a.ID.trim();
    const el = byId.get(id);
    if (el) {
      if (autoriseValue(valueOf(el, 'Autorise')) !== a.Autorise) {
        ed.setValue(el, 'Autorise', String(a.Autorise), AUTORISATION_ORDER);
        changed = true;
      }
      continue;
    }
    if (a.Autorise === 0) continue;
    const n = ed.el('Autorisation', [
      ed.el('ID', id),
      ed.el('Autorise', String(a.Autorise)),
      ed.el('Libelle', a.Libelle),
    ]);
    addedAuths.push(n);
    byId.set(id, n);
    changed = true;
  }
  if (addedAuths.length > 0) {
    auths ??= ed.ensure(t, 'Autorisations', TERMINAL_ORDER);
    // Each new one after the one before, the first after the last stored one.
    if (lastAuth) ed.insertAll(auths, addedAuths, { after: lastAuth });
    else ed.insertAllOrdered(auths, addedAuths, AUTORISATIONS_ORDER);
  }
  if (changed && auths) updateAutorisationLongue(ed, auths);
  return ed.finish();
}

function badIndex(): ConfigXmlError {
  return new ConfigXmlError('terminal-index', 'Impossible de déterminer le terminal à mettre à jour');
}

/** Rewrites Autorisation_Longue so that slot ID-1 holds the Autorise of each entry. */
function updateAutorisationLongue(ed: SectionEditor, auths: XElement): void {
  const longue = childNamed(auths, 'Autorisation_Longue');
  const slots = longue
    ? ed
        .current(longue)
        .trim()
        .split('|')
        .filter((_, i, a) => !(a.length === 1 && a[0] === ''))
    : [];
  const target = [...slots];
  for (const a of childrenNamed(auths, 'Autorisation')) {
    const id = textOf(a, 'ID').trim();
    if (!/^\d+$/.test(id)) continue;
    const n = Number(id);
    if (n < 1 || n > AUTORISATION_LONGUE_MAX) continue;
    while (target.length < n) target.push('0');
    target[n - 1] = String(autoriseValue(valueOf(a, 'Autorise')));
  }
  while (target.length < AUTORISATION_LONGUE_MIN) target.push('0');
  const value = target.join('|');
  if (longue && ed.current(longue).trim() === value) return;
  ed.setValue(auths, 'Autorisation_Longue', value, AUTORISATIONS_ORDER);
}

/** The Autorisation_Longue a terminal should have (for tests and diagnostics): slot ID-1 = Autorise. */
export function expectedAutorisationLongue(
  values: { ID: string; Autorise: number }[],
  length = AUTORISATION_LONGUE_MIN,
): string {
  const slots: string[] = [];
  for (const v of values) {
    const n = Number(v.ID);
    if (!Number.isInteger(n) || n < 1 || n > AUTORISATION_LONGUE_MAX) continue;
    while (slots.length < n) slots.push('0');
    slots[n - 1] = String(v.Autorise);
  }
  while (slots.length < length) slots.push('0');
  return slots.join('|');
}
