import { SECRET_PLACEHOLDER } from '@synchro/contracts';
import { asDocument, elementAt, type ConfigDocument } from './document.ts';
import { ELEMENT, xmlText, type XElement } from './xml/tree.ts';

/**
 * Which values are secrets: every `MDP`, every value under a `Token` or `Tokens` element (source
 * tokens, Liaisons_Externes/Agenda/Token/Valeur), and the customer-area login
 * (Complement/EspaceClient: `Utilisateur` and `MDP`).
 */
export const SECRET_ELEMENT = 'MDP';
export const TOKEN_ELEMENTS: readonly string[] = ['Token', 'Tokens'];
export const CUSTOMER_AREA = 'EspaceClient';

interface Range {
  start: number;
  end: number;
}

function collect(el: XElement, inSecret: boolean, out: Range[]): void {
  let hasChildElement = false;
  const secretHere = inSecret || TOKEN_ELEMENTS.includes(el.name) || el.name === CUSTOMER_AREA;
  for (const k of el.children) {
    if (k.kind === ELEMENT) {
      hasChildElement = true;
      collect(k, secretHere, out);
    }
  }
  if (hasChildElement || el.sourceSelfClosing) return;
  if ((inSecret || el.name === SECRET_ELEMENT) && xmlText(el) !== '') {
    out.push({ start: el.openEnd, end: el.closeStart });
  }
}

/** Source ranges of the non-empty secret values of a document, in document order. */
export function secretRanges(doc: ConfigDocument): Range[] {
  const t = doc.text;
  const out: Range[] = [];
  for (const r of doc.layout.sections) {
    const slice = t.slice(r.start, r.end);
    if (
      slice.indexOf(SECRET_ELEMENT) === -1 &&
      slice.indexOf('Token') === -1 &&
      slice.indexOf(CUSTOMER_AREA) === -1
    ) {
      continue;
    }
    collect(elementAt(doc.src, r, Infinity), false, out);
  }
  return out;
}

/**
 * The document text with every non-empty secret replaced by SECRET_PLACEHOLDER (empty ones stay
 * empty); everything else is byte-identical. This is the ConfigConnecteur served to the browser.
 */
export function redactConfig(input: string | ConfigDocument): string {
  const doc = asDocument(input);
  const ranges = secretRanges(doc);
  if (ranges.length === 0) return doc.text;
  const parts: string[] = [];
  let last = 0;
  for (const r of ranges) {
    parts.push(doc.text.slice(last, r.start), SECRET_PLACEHOLDER);
    last = r.end;
  }
  parts.push(doc.text.slice(last));
  return parts.join('');
}
