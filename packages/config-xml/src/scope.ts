import { asDocument, type ConfigDocument } from './document.ts';
import { pathNamed, serialize } from './xml/tree.ts';

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
