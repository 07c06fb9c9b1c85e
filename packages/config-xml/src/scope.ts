import type { TEditKind } from '@synchro/contracts';
import { asDocument, type ConfigDocument } from './document.ts';
import { childNamed, childrenNamed, pathNamed, serialize, xmlText, type XElement } from './xml/tree.ts';

/**
 * Exact source text of one part of the document, or null when it is absent: `name` is a root
 * child (`'Sources'`) or a `/`-separated path below one (`'Liaisons_Externes/Agenda'`), the first
 * element of that name at each step.
 *
 * For conflict detection: when `sectionOf(base, x) === sectionOf(current, x)`, nothing in `x`
 * changed between the version an administrator edited and the newest one.
 */
export function sectionOf(input: string | ConfigDocument, name: string): string | null {
  const doc = asDocument(input);
  const [head, ...rest] = name.split('/');
  if (head === undefined) return null;
  if (rest.length === 0) return doc.sectionText(head);
  const el = pathNamed(doc.section(head), rest.join('/'));
  return el ? serialize(el, doc.src) : null;
}

/** What each edit owns, for editScope: the registry's edit kinds (`@synchro/contracts`). */
export type EditKind = TEditKind;

/** The section each edit rewrites (the only bytes an edit may change). */
export const EDIT_SECTION: Record<EditKind, string> = {
  sources: 'Sources',
  externalLinks: 'Liaisons_Externes',
  externalCalendars: 'Liaisons_Externes',
  syncData: 'Donnees_A_Synchroniser',
  exclusions: 'Exclusions',
  complement: 'Complement',
  planifications: 'Planifications',
  terminal: 'Terminaux',
};

const OWNED_SOURCE_FIELDS = ['Provider', 'Serveur', 'Nom_BDD', 'Utilisateur', 'MDP', 'Lecture_Seule'];

/**
 * A fingerprint of exactly what one edit owns (exact source text of those nodes). When it is the
 * same in the version an administrator edited and in the newest one, applying the edit to the
 * newest version loses nothing; when it differs, someone else changed the same data (409).
 * Connector-written nodes inside the section (source Status/Tokens, the agenda Token,
 * EspaceClient, NuxiSavOnLine...) are not part of it, so the connector's writes never cause a
 * conflict. `index` is the terminal's for 'terminal'.
 */
export function editScope(input: string | ConfigDocument, kind: EditKind, index = 0): string {
  const doc = asDocument(input);
  const parts: string[] = [];
  const put = (el: XElement | null): void => {
    parts.push(el ? serialize(el, doc.src) : '\u2205');
  };
  switch (kind) {
    case 'sources':
      for (const s of childrenNamed(doc.section('Sources'), 'Source')) {
        for (const f of OWNED_SOURCE_FIELDS) put(childNamed(s, f));
      }
      break;
    case 'externalLinks': {
      const s = doc.section('Liaisons_Externes');
      put(childNamed(s, 'Dossier_Import'));
      put(childNamed(s, 'Dossier_Export'));
      put(childNamed(s, 'Liaisons'));
      break;
    }
    case 'externalCalendars': {
      const a = pathNamed(doc.section('Liaisons_Externes'), 'Agenda');
      put(childNamed(a, 'Type_Agenda'));
      put(childNamed(a, 'Correspondances'));
      break;
    }
    case 'exclusions':
      for (const ex of childrenNamed(doc.section('Exclusions'), 'Exclusion')) {
        const type = childNamed(ex, 'Type');
        const t = type ? xmlText(type).trim() : '';
        if (t === 'ItemFamily' || t === 'CustomerFamily' || t === 'SupplierFamily') put(ex);
      }
      break;
    case 'complement': {
      const s = doc.section('Complement');
      for (const f of ['APIKey_Google', 'Drive', 'Mail_Rapport', 'ScriptComplementaire'])
        put(childNamed(s, f));
      break;
    }
    case 'terminal': {
      const s = doc.section('Terminaux', { depth: 0, fresh: true });
      put(childrenNamed(s, 'Terminal')[index] ?? null);
      break;
    }
    default:
      put(doc.section(EDIT_SECTION[kind]));
  }
  return parts.join('\u0000');
}
