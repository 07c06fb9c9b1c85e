import { SECRET_PLACEHOLDER } from '@synchro/contracts';
import { asDocument, type ConfigDocument } from './document.ts';

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

/** Source ranges of the non-empty secret values of a document, in document order. */
export function secretRanges(doc: ConfigDocument): Range[] {
  const ix = doc.index;
  const out: Range[] = [];
  const secretId = ix.idOf(SECRET_ELEMENT);
  const contextIds = [...TOKEN_ELEMENTS, CUSTOMER_AREA].map((n) => ix.idOf(n)).filter((id) => id >= 0);
  if (secretId < 0 && contextIds.length === 0) return out;
  // inSecret[k]: element k is, or is inside, a Token / Tokens / EspaceClient element.
  const inSecret = new Uint8Array(ix.count);
  for (let k = 0; k < ix.count; k++) {
    const parent = ix.parent[k] as number;
    const id = ix.nameId[k] as number;
    inSecret[k] = (parent >= 0 && inSecret[parent] === 1) || contextIds.includes(id) ? 1 : 0;
    if (ix.firstChild[k] !== -1 || ix.end[k] === ix.openEnd[k]) continue; // not a leaf, or empty tag
    if ((inSecret[k] === 1 || id === secretId) && ix.xmlText(k) !== '') {
      out.push({ start: ix.openEnd[k] as number, end: ix.closeStart[k] as number });
    }
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
