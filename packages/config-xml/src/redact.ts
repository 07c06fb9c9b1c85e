import { SECRET_PLACEHOLDER } from '@synchro/contracts';
import { asDocument, type ConfigDocument } from './document.ts';

/**
 * Which elements hold secrets: every `MDP` and `APIKey_Google` (values), and every `Token`,
 * `Tokens` (source tokens, Liaisons_Externes/Agenda/Token) and `EspaceClient` (the customer-area
 * login) with everything inside them. Names are matched whatever their case: masking an element
 * the connector would not read costs nothing, missing one leaks a secret.
 */
import { SECRET_BLOCKS, SECRET_VALUES, isSecretName } from './xml/secret-names.ts';

export { SECRET_BLOCKS, SECRET_VALUES, isSecretName };

interface Range {
  start: number;
  end: number;
  /** The secret element (its index in the document's element index). */
  element: number;
}

/**
 * Content ranges (between the start tag and the end tag) of the outermost secret elements of a
 * document that hold something, in document order.
 */
export function secretRanges(doc: ConfigDocument): Range[] {
  const ix = doc.index;
  const out: Range[] = [];
  const secretIds = new Set<number>();
  ix.names.forEach((name, id) => {
    if (isSecretName(name)) secretIds.add(id);
  });
  if (secretIds.size === 0) return out;
  // inSecret[k]: element k is, or is inside, a secret element.
  const inSecret = new Uint8Array(ix.count);
  for (let k = 0; k < ix.count; k++) {
    const parent = ix.parent[k] as number;
    const outer = parent >= 0 && inSecret[parent] === 1;
    if (!outer && !secretIds.has(ix.nameId[k] as number)) continue;
    inSecret[k] = 1;
    const start = ix.openEnd[k] as number;
    const end = ix.closeStart(k);
    if (!outer && end > start) out.push({ start, end, element: k });
  }
  return out;
}

/** Offset after the `>` of the tag starting at `lt` (quoted `>` skipped), -1 when none before `to`. */
function tagEnd(text: string, lt: number, to: number): number {
  let quote = '';
  for (let i = lt + 1; i < to; i++) {
    const c = text[i] as string;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i + 1;
  }
  return -1;
}

const TAG_START = /[A-Za-z_:/\u00c0-\uffff]/;

/**
 * What a hidden piece of a secret becomes: `rank` is its place among the pieces of its secret
 * element (0, 1, …), `raw` its stored text (never to be shown).
 */
export type PieceMask = (rank: number, raw: string) => string;

const PLACEHOLDER_MASK: PieceMask = () => SECRET_PLACEHOLDER;

const ATTRIBUTE_VALUE = /=(\s*)("[^"]*"|'[^']*')/g;

/**
 * The content of a secret element (text[from, to)) with every text hidden: each run of text,
 * CDATA sections and processing instructions becomes one masked piece (SECRET_PLACEHOLDER by
 * default), each comment's text too (it stays a comment), each attribute value of a nested tag
 * too. Nested tags stay, so the document keeps its shape. A run of blanks between tags
 * (indentation) stays; a content with no tag at all is a value, hidden even when blank. What
 * cannot be read as markup (a lone `<`, a tag, comment or section not closed before `to`) is text.
 */
export function maskSecretContent(
  text: string,
  from: number,
  to: number,
  mask: PieceMask = PLACEHOLDER_MASK,
): string {
  const parts: { kind: 'tag' | 'comment' | 'run'; text: string }[] = [];
  let run = '';
  const push = (kind: 'tag' | 'comment', value: string) => {
    if (run !== '') parts.push({ kind: 'run', text: run });
    run = '';
    parts.push({ kind, text: value });
  };
  let i = from;
  while (i < to) {
    const lt = text.indexOf('<', i);
    if (lt === -1 || lt >= to) {
      run += text.slice(i, to);
      break;
    }
    run += text.slice(i, lt);
    const closing = (marker: string, skip: number) => {
      const e = text.indexOf(marker, lt + skip);
      return e === -1 || e + marker.length > to ? to : e + marker.length;
    };
    if (text.startsWith('<!--', lt)) {
      const e = text.indexOf('-->', lt + 4);
      if (e === -1 || e + 3 > to) {
        run += text.slice(lt, to);
        break;
      }
      push('comment', text.slice(lt + 4, e));
      i = e + 3;
    } else if (text.startsWith('<![CDATA[', lt)) {
      i = closing(']]>', 9);
      run += text.slice(lt, i);
    } else if (text.startsWith('<?', lt)) {
      i = closing('?>', 2);
      run += text.slice(lt, i);
    } else {
      const end = TAG_START.test(text[lt + 1] ?? '') ? tagEnd(text, lt, to) : -1;
      if (end === -1) {
        run += text.slice(lt, lt + 1);
        i = lt + 1;
        continue;
      }
      push('tag', text.slice(lt, end));
      i = end;
    }
  }
  if (run !== '') parts.push({ kind: 'run', text: run });
  const hasTags = parts.some((p) => p.kind !== 'run');
  let rank = 0;
  return parts
    .map((p) => {
      if (p.kind === 'tag')
        return p.text.replace(ATTRIBUTE_VALUE, (_, blanks: string, quoted: string) => {
          return `=${blanks}"${mask(rank++, quoted.slice(1, -1))}"`;
        });
      if (p.kind === 'comment') return p.text === '' ? '<!---->' : `<!--${mask(rank++, p.text)}-->`;
      return hasTags && p.text.trim() === '' ? p.text : mask(rank++, p.text);
    })
    .join('');
}

/**
 * The document text with every secret hidden (maskSecretContent of each secret element; empty
 * ones stay empty); every byte outside the secret elements is unchanged. This is the
 * ConfigConnecteur served to the browser.
 *
 * `mask` (the raw view of a version's changes) chooses each piece's mask from its place: the
 * secret element's position from the root (names and ranks among same-named siblings,
 * `Connexion[0]/Sources[0]/Source[2]/MDP[0]`) and the piece's rank in it, `…#0`.
 */
export function redactConfig(
  input: string | ConfigDocument,
  mask?: (place: string, raw: string) => string,
): string {
  const doc = asDocument(input);
  const ranges = secretRanges(doc);
  if (ranges.length === 0) return doc.text;
  const placeOf = mask ? siblingPlaces(doc) : null;
  const parts: string[] = [];
  let last = 0;
  for (const r of ranges) {
    const pieceMask: PieceMask | undefined =
      mask && placeOf ? (rank, raw) => mask(`${placeOf(r.element)}#${rank}`, raw) : undefined;
    parts.push(doc.text.slice(last, r.start), maskSecretContent(doc.text, r.start, r.end, pieceMask));
    last = r.end;
  }
  parts.push(doc.text.slice(last));
  return parts.join('');
}

/**
 * An element's position from the root: each ancestor's name and rank among its same-named
 * siblings. The ranks of a parent's children are counted once, when one of them is first asked.
 */
function siblingPlaces(doc: ConfigDocument): (el: number) => string {
  const ix = doc.index;
  const rank = new Int32Array(ix.count).fill(-1);
  const rankOf = (el: number): number => {
    if (rank[el] === -1) {
      const parent = ix.parent[el] as number;
      const counts = new Map<number, number>();
      const first = parent >= 0 ? ix.firstChild(parent) : 0;
      for (let k = first; k !== -1; k = ix.nextSibling[k] as number) {
        const id = ix.nameId[k] as number;
        const n = counts.get(id) ?? 0;
        rank[k] = n;
        counts.set(id, n + 1);
      }
    }
    return rank[el] as number;
  };
  return (el) => {
    const steps: string[] = [];
    for (let k = el; k >= 0; k = ix.parent[k] as number) steps.push(`${ix.name(k)}[${rankOf(k)}]`);
    return steps.reverse().join('/');
  };
}
