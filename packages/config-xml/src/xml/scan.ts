import { utf8ByteLength } from '@synchro/contracts';
import { ConfigXmlError, errorAt } from '../errors.ts';
import { AMP, BANG, DQ, EQ, GT, isWs, LT, QMARK, sameChars, SLASH, SQ } from './chars.ts';
import { isXmlCodePoint } from './escape.ts';
import { ElementIndex } from './index.ts';
import { isNameCode, isNameStartCode } from './names.ts';
import { isSecretName } from './secret-names.ts';

/** The XML 1.0 declaration grammar (version, then optional encoding and standalone). */
const XML_DECLARATION =
  /^<\?xml\s+version\s*=\s*(["'])1\.[0-9]+\1(?:\s+encoding\s*=\s*(["'])[A-Za-z][A-Za-z0-9._-]*\2)?(?:\s+standalone\s*=\s*(["'])(?:yes|no)\3)?\s*\?>$/;

/**
 * The same grammar with version 1.0 and XML white space only (JavaScript's `\s` also matches
 * U+00A0, U+2028, U+FEFF…): a declaration XML_DECLARATION accepts but this one does not is one
 * where strict XML parsers may judge the document differently (see DocumentLayout.strictEdge).
 * Everything it accepts XML_DECLARATION accepts too (record/plain-check.ts relies on it).
 */
export const PLAIN_XML_DECLARATION =
  /^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])1\.0\1(?:[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(["'])[A-Za-z][A-Za-z0-9._-]*\2)?(?:[ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(["'])(?:yes|no)\3)?[ \t\r\n]*\?>$/;

export { isNameCode, isNameStartCode } from './names.ts';

/**
 * The validating top-level scanner. One pass over the text checks that the document is
 * well-formed XML 1.0 without a DTD (and refuses a DOCTYPE, undeclared entities, characters XML
 * cannot carry), and records where each child of the root starts and ends, so that a section can
 * be read or rewritten without parsing the others.
 *
 * It works on character codes and `indexOf` jumps (no regular expression over the document, no
 * string building); markup names are the only strings it allocates.
 *
 * Over 400 lines on purpose: the Scanner is one state machine whose methods share one cursor and
 * one element stack in a hot loop; split across files it would be harder to follow, not easier.
 */

export const DEFAULT_MAX_BYTES = 60 * 1024 * 1024;
/** Deeper documents are refused: no real configuration is deeper than 10. */
export const MAX_DEPTH = 256;
/**
 * More attributes on one element are refused: no configuration or record element has more than
 * a few dozen, and 100 000 of them (a 1 MB record) only serve to make the server work.
 */
export const MAX_ATTRIBUTES = 10_000;
const MAX_ATTRIBUTES_TEXT = '10\u00a0000';
export const ROOT_NAME = 'Connexion';

export interface SectionRange {
  name: string;
  /** Offset of the `<` of the start tag. */
  start: number;
  /** Offset just after the `>` of the end tag (or of the self-closing tag). */
  end: number;
}

export interface DocumentLayout {
  /** 1 when the text starts with a byte order mark (U+FEFF), else 0. */
  bomLength: number;
  rootStart: number;
  /** Offset just after the `>` of the root start tag. */
  rootOpenEnd: number;
  /** Offset of the `</` of the root end tag (= rootEnd when self-closing). */
  rootCloseStart: number;
  rootEnd: number;
  rootSelfClosing: boolean;
  /** The children of the root element, in document order. */
  sections: SectionRange[];
  /** Line end of the document: CRLF when its first line end is CRLF. */
  newline: '\r\n' | '\n';
  /** Every element of the document, for the readers. */
  index: ElementIndex;
  /**
   * True when the document uses something on which this scanner's rules and a strict XML 1.0
   * parser's (saxes, the diagnostic's) may part: a name character of planes 15–16 (U+F0000 and
   * above: the scanner takes every supplementary character as a name character, XML 1.0 stops at
   * U+EFFFF), or an XML declaration other than version 1.0 with XML white space (a version 1.x
   * makes saxes apply XML 1.1's characters: C1 controls refused, NEL and U+2028 as line ends).
   * When it is false, a document this scanner accepts is one saxes accepts too
   * (test/strict-equivalence.test.ts), so the diagnostic need not run saxes over it.
   */
  strictEdge: boolean;
}

export interface ScanOptions {
  /** Largest accepted document, in UTF-8 bytes. Default 60 MB. */
  maxBytes?: number;
  /** Required name of the root element (default `Connexion`); null accepts any root. */
  rootName?: string | null;
  /**
   * An index to fill again (ElementIndex.reuse) instead of a new one: for a caller that only
   * validates and drops the layout before its next scan.
   */
  reuseIndex?: ElementIndex;
}

/** 1 for the ASCII characters of a name (letters, digits, `_`, `-`, `.`, `:`): one load per character. */
const ASCII_NAME = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_NAME[c] = isNameCode(c) ? 1 : 0;

/** UTF-8 length of a string, stopping early once it exceeds `limit`. */
function utf8LengthOver(text: string, limit: number): number {
  let bytes = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
    if (bytes > limit) return bytes;
  }
  return bytes;
}

function mo(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1).replace('.', ',');
}

/** Refuses a text over the size limit, before any parsing. */
export function checkSize(text: string, maxBytes: number = DEFAULT_MAX_BYTES): void {
  if (text.length * 3 <= maxBytes) return;
  // A quick native count first. utf8ByteLength counts a lone high surrogate as 3 bytes and the
  // unit after it on its own, utf8LengthOver as 4 with that unit: the latter is never more than
  // one byte above (a high surrogate ending the text), so within the limit with that byte spare
  // by the quick count means within it here too.
  if (utf8ByteLength(text) + 1 <= maxBytes) return;
  const bytes = text.length > maxBytes ? text.length : utf8LengthOver(text, maxBytes);
  if (bytes > maxBytes) {
    throw new ConfigXmlError(
      'too-large',
      `Le document de configuration est trop volumineux (${mo(bytes)} Mo). La taille maximale autorisée est de ${mo(maxBytes)} Mo.`,
    );
  }
}

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const SUSPECT_CHAR = /[\x00-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/g;

/** First character XML 1.0 cannot carry (controls, U+FFFE/U+FFFF, lone surrogates), or -1. */
export function findInvalidChar(text: string, from = 0, to = text.length): number {
  // A regular expression finds the suspects (a single character class: no backtracking);
  // surrogate pairs among them are valid.
  const re = new RegExp(SUSPECT_CHAR.source, 'g');
  re.lastIndex = from;
  for (;;) {
    const m = re.exec(text);
    if (m === null || m.index >= to) return -1;
    const i = m.index;
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff && i + 1 < to) {
        re.lastIndex = i + 2;
        continue;
      }
    }
    return i;
  }
}

/**
 * Scans and validates the whole document. Throws ConfigXmlError (French message, line, column)
 * on the first fault.
 */
export function scanDocument(text: string, options: ScanOptions = {}): DocumentLayout {
  checkSize(text, options.maxBytes ?? DEFAULT_MAX_BYTES);
  return new Scanner(
    text,
    options.rootName === undefined ? ROOT_NAME : options.rootName,
    options.reuseIndex ?? null,
  ).run();
}

class Scanner {
  private readonly t: string;
  private readonly n: number;
  /** Cached offset of the next `&` at or after the scan position (n when none). */
  private nextAmp = -1;
  private nextCdataEnd = -1;
  private readonly rootName: string | null;
  private readonly reuseIndex: ElementIndex | null;

  constructor(text: string, rootName: string | null, reuseIndex: ElementIndex | null) {
    this.t = text;
    this.n = text.length;
    this.rootName = rootName;
    this.reuseIndex = reuseIndex;
  }

  /** The open elements (indices in `ix`), for fail. */
  private stack: number[] = [];
  private ix: ElementIndex | null = null;

  /**
   * Throws the fault. Inside a secret element (a password…) the message quotes nothing of the
   * text: a stored password like `Ab<cd efGH12` would otherwise show up as an attribute name.
   */
  private fail(offset: number, code: string, message: string): never {
    const ix = this.ix;
    if (ix !== null) {
      for (const el of this.stack) {
        const name = ix.name(el);
        if (isSecretName(name)) {
          throw errorAt(
            this.t,
            offset,
            code,
            `Contenu mal formé dans l’élément secret <${name}> (sa valeur n’est pas citée)`,
          );
        }
      }
    }
    throw errorAt(this.t, offset, code, message);
  }

  run(): DocumentLayout {
    const t = this.t;
    const n = this.n;
    if (n === 0 || (n === 1 && t.charCodeAt(0) === 0xfeff)) {
      throw new ConfigXmlError('empty', 'Le document de configuration est vide.');
    }
    const bad = findInvalidChar(t, 0, n);
    const bomLength = t.charCodeAt(0) === 0xfeff ? 1 : 0;
    if (bad !== -1 && !(bad === 0 && bomLength === 1)) {
      const c = t.charCodeAt(bad);
      this.fail(
        bad,
        'invalid-char',
        `Caractère non autorisé dans un document XML (U+${c.toString(16).toUpperCase().padStart(4, '0')})`,
      );
    }
    let p = bomLength;
    // XML declaration, only at the very start.
    if (t.startsWith('<?xml', p) && (isWs(t.charCodeAt(p + 5)) || t.charCodeAt(p + 5) === QMARK)) {
      const e = t.indexOf('?>', p + 5);
      if (e === -1) this.fail(p, 'malformed', 'Déclaration XML non terminée');
      const declaration = t.slice(p, e + 2);
      if (!XML_DECLARATION.test(declaration)) {
        this.fail(p, 'malformed', 'Déclaration XML mal formée (version, encoding, standalone)');
      }
      if (!PLAIN_XML_DECLARATION.test(declaration)) this.strictEdge = true;
      p = e + 2;
    }
    const ix = this.reuseIndex?.reuse(t) ?? new ElementIndex(t);
    this.ix = ix;
    /** Open elements (indices in ix); lastChild[d] = last child element seen at depth d. */
    const stack: number[] = this.stack;
    const lastChild: number[] = [-1];
    let state = 0; // 0 before the root, 1 inside, 2 after

    while (p < n) {
      const c = t.charCodeAt(p);
      if (c !== LT) {
        let q = t.indexOf('<', p);
        if (q === -1) q = n;
        if (state !== 1) {
          for (let i = p; i < q; i++) {
            if (!isWs(t.charCodeAt(i))) {
              this.fail(
                i,
                'malformed',
                state === 0 ? 'Texte avant l’élément racine' : 'Texte après la fin de l’élément racine',
              );
            }
          }
        } else {
          this.checkText(p, q);
        }
        p = q;
        continue;
      }
      const c2 = t.charCodeAt(p + 1);
      if (c2 === SLASH) {
        if (state !== 1) this.fail(p, 'malformed', 'Balise fermante sans balise ouvrante');
        const el = stack[stack.length - 1] as number;
        const open = ix.name(el);
        // The end tag names the open element when its characters equal those of the start tag
        // (compared in place: no string is built or searched per end tag).
        let nameEnd = p + 2 + open.length;
        const same = sameChars(t, (ix.start[el] as number) + 1, p + 2, open.length);
        if (!same || nameEnd >= n || isNameCode(t.charCodeAt(nameEnd))) nameEnd = this.nameEnd(p + 2);
        if (nameEnd >= n) this.fail(p, 'truncated', `Document tronqué dans la balise fermante </${open}>`);
        if (nameEnd - p - 2 !== open.length || !same) {
          if (nameEnd === p + 2) this.fail(p, 'malformed', 'Nom de balise fermante attendu');
          const name = t.slice(p + 2, nameEnd);
          this.fail(p, 'mismatched-tag', `Balise fermante </${name}> inattendue : </${open}> était attendue`);
        }
        let i = nameEnd;
        while (i < n && isWs(t.charCodeAt(i))) i++;
        if (i >= n) this.fail(p, 'truncated', `Document tronqué dans la balise </${open}>`);
        if (t.charCodeAt(i) !== GT)
          this.fail(i, 'malformed', `Caractère inattendu dans la balise </${open}>`);
        stack.pop();
        lastChild.pop();
        p = i + 1;
        ix.end[el] = p;
        if (stack.length === 0) state = 2;
        continue;
      }
      if (c2 === QMARK) {
        const nameEnd = this.nameEnd(p + 2);
        if (nameEnd === p + 2) this.fail(p, 'malformed', 'Nom d’instruction de traitement attendu');
        const target = t.slice(p + 2, nameEnd);
        if (target.toLowerCase() === 'xml') {
          this.fail(p, 'malformed', 'La déclaration XML doit être au tout début du document');
        }
        const e = t.indexOf('?>', nameEnd);
        if (e === -1) this.fail(p, 'truncated', 'Instruction de traitement non terminée');
        if (e !== nameEnd && !isWs(t.charCodeAt(nameEnd))) {
          this.fail(nameEnd, 'malformed', 'Instruction de traitement mal formée');
        }
        p = e + 2;
        continue;
      }
      if (c2 === BANG) {
        if (t.startsWith('<!--', p)) {
          const e = t.indexOf('--', p + 4);
          if (e === -1) this.fail(p, 'truncated', 'Commentaire non terminé');
          if (t.charCodeAt(e + 2) !== GT)
            this.fail(e, 'malformed', '« -- » est interdit dans un commentaire');
          p = e + 3;
          continue;
        }
        if (t.startsWith('<![CDATA[', p)) {
          if (state !== 1) this.fail(p, 'malformed', 'Section CDATA hors de l’élément racine');
          const e = t.indexOf(']]>', p + 9);
          if (e === -1) this.fail(p, 'truncated', 'Section CDATA non terminée');
          p = e + 3;
          continue;
        }
        const word = t.slice(p + 2, p + 9).toUpperCase();
        if (word === 'DOCTYPE') {
          this.fail(
            p,
            'doctype',
            'Le document contient une déclaration DOCTYPE : elle est refusée pour des raisons de sécurité',
          );
        }
        if (word.startsWith('ENTITY')) {
          this.fail(
            p,
            'entity',
            'Le document déclare une entité : c’est refusé pour des raisons de sécurité',
          );
        }
        this.fail(p, 'malformed', 'Balise « <! » inconnue');
      }
      // Start tag.
      if (!isNameStartCode(c2)) {
        if (p + 1 >= n) this.fail(p, 'truncated', 'Document tronqué après « < »');
        this.fail(p, 'malformed', 'Nom de balise attendu après « < »');
      }
      if (state === 2) this.fail(p, 'malformed', 'Un seul élément racine est permis');
      const nameEnd = this.nameEnd(p + 1);
      const nameId = ix.internAt(p + 1, nameEnd, this.hash);
      const name = ix.names[nameId] as string;
      const tagEnd = this.attributes(p, nameEnd, name);
      const selfClosing = t.charCodeAt(tagEnd - 2) === SLASH;
      if (state === 0 && this.rootName !== null && name !== this.rootName) {
        this.fail(p, 'root', `L’élément racine doit être <${this.rootName}>, pas <${name}>`);
      }
      const depth = stack.length;
      const el = ix.add(
        nameId,
        p,
        tagEnd,
        depth > 0 ? (stack[depth - 1] as number) : -1,
        lastChild[depth] as number,
      );
      lastChild[depth] = el;
      if (selfClosing) {
        if (depth === 0) state = 2;
      } else {
        if (depth >= MAX_DEPTH)
          this.fail(p, 'depth', `Le document est trop profond (plus de ${MAX_DEPTH} niveaux)`);
        stack.push(el);
        lastChild.push(-1);
        if (depth === 0) state = 1;
      }
      p = tagEnd;
    }
    if (state === 0)
      throw new ConfigXmlError(
        'no-root',
        this.rootName === null
          ? 'Le document ne contient aucun élément.'
          : `Le document ne contient pas d’élément <${this.rootName}>.`,
      );
    if (state === 1) {
      const open = ix.name(stack[stack.length - 1] as number);
      this.fail(n, 'truncated', `Document tronqué : la balise <${open}> n’est pas fermée`);
    }
    const sections: SectionRange[] = [];
    for (let k = ix.firstChild(0); k !== -1; k = ix.nextSibling[k] as number) {
      sections.push({ name: ix.name(k), start: ix.start[k] as number, end: ix.end[k] as number });
    }
    return {
      bomLength,
      rootStart: ix.start[0] as number,
      rootOpenEnd: ix.openEnd[0] as number,
      rootCloseStart: ix.closeStart(0),
      rootEnd: ix.end[0] as number,
      rootSelfClosing: ix.selfClosing(0),
      sections,
      newline: detectNewline(t),
      index: ix,
      strictEdge: this.strictEdge,
    };
  }

  /** See DocumentLayout.strictEdge. */
  private strictEdge = false;

  /** Hash of the last name read by nameEnd (see nameHash). */
  private hash = 0;

  /** isNameCode for a character outside ASCII, noting a high surrogate of planes 15–16. */
  private wideNameCode(c: number): boolean {
    if (c >= 0xdb80 && c <= 0xdbff) this.strictEdge = true;
    return isNameCode(c);
  }

  private nameEnd(i: number): number {
    const t = this.t;
    const n = this.n;
    if (i >= n) return i;
    let c = t.charCodeAt(i);
    if (!isNameStartCode(c)) return i;
    if (c >= 0xdb80 && c <= 0xdbff) this.strictEdge = true;
    let h = c;
    i++;
    while (i < n) {
      c = t.charCodeAt(i);
      if (c < 0x80 ? ASCII_NAME[c] === 1 : this.wideNameCode(c)) {
        h = (Math.imul(h, 31) + c) | 0;
        i++;
      } else break;
    }
    this.hash = h >>> 0;
    return i;
  }

  /** Checks the attributes of a start tag; returns the offset after its `>`. */
  private attributes(tagStart: number, nameEnd: number, tagName: string): number {
    const t = this.t;
    const n = this.n;
    let i = nameEnd;
    let seen: string[] | Set<string> | null = null;
    let count = 0;
    for (;;) {
      const ws = i;
      while (i < n && isWs(t.charCodeAt(i))) i++;
      if (i >= n) this.fail(tagStart, 'truncated', `Document tronqué dans la balise <${tagName}>`);
      const c = t.charCodeAt(i);
      if (c === GT) return i + 1;
      if (c === SLASH) {
        if (t.charCodeAt(i + 1) === GT) return i + 2;
        this.fail(i, 'malformed', `« / » inattendu dans la balise <${tagName}>`);
      }
      if (i === ws || !isNameStartCode(c)) {
        this.fail(i, 'malformed', `Caractère inattendu dans la balise <${tagName}>`);
      }
      const an = this.nameEnd(i);
      const attr = t.slice(i, an);
      if (++count > MAX_ATTRIBUTES)
        this.fail(i, 'attributes', `Trop d’attributs dans <${tagName}> (plus de ${MAX_ATTRIBUTES_TEXT})`);
      // A list while it is short (the usual tag), a set past a few names: linear in any case.
      if (seen === null) seen = [attr];
      else if (Array.isArray(seen)) {
        if (seen.includes(attr))
          this.fail(i, 'malformed', `Attribut « ${attr} » en double dans <${tagName}>`);
        seen.push(attr);
        if (seen.length > 8) seen = new Set(seen);
      } else {
        if (seen.has(attr)) this.fail(i, 'malformed', `Attribut « ${attr} » en double dans <${tagName}>`);
        seen.add(attr);
      }
      i = an;
      while (i < n && isWs(t.charCodeAt(i))) i++;
      if (t.charCodeAt(i) !== EQ) this.fail(i, 'malformed', `« = » attendu après l’attribut « ${attr} »`);
      i++;
      while (i < n && isWs(t.charCodeAt(i))) i++;
      const q = t.charCodeAt(i);
      if (q !== DQ && q !== SQ)
        this.fail(i, 'malformed', `Valeur entre guillemets attendue pour « ${attr} »`);
      const e = t.indexOf(q === DQ ? '"' : "'", i + 1);
      if (e === -1) this.fail(i, 'truncated', `Valeur de l’attribut « ${attr} » non terminée`);
      for (let k = i + 1; k < e; k++) {
        const v = t.charCodeAt(k);
        if (v === LT) this.fail(k, 'malformed', `« < » interdit dans la valeur de l’attribut « ${attr} »`);
        if (v === AMP) k = this.reference(k) - 1;
      }
      i = e + 1;
    }
  }

  /** Checks text content [p, q): references and `]]>`. */
  private checkText(p: number, q: number): void {
    const t = this.t;
    if (this.nextAmp < p) {
      const a = t.indexOf('&', p);
      this.nextAmp = a === -1 ? this.n : a;
    }
    while (this.nextAmp < q) {
      const after = this.reference(this.nextAmp);
      const a = t.indexOf('&', after);
      this.nextAmp = a === -1 ? this.n : a;
    }
    if (this.nextCdataEnd < p) {
      const e = t.indexOf(']]>', p);
      this.nextCdataEnd = e === -1 ? this.n : e;
    }
    if (this.nextCdataEnd < q)
      this.fail(this.nextCdataEnd, 'malformed', '« ]]> » est interdit dans le texte');
  }

  /** Checks the reference starting with `&` at `a`; returns the offset after its `;`. */
  private reference(a: number): number {
    const t = this.t;
    const n = this.n;
    let i = a + 1;
    if (t.charCodeAt(i) === 35) {
      // &#...; or &#x...;
      i++;
      let cp = 0;
      let digits = 0;
      if (t.charCodeAt(i) === 120) {
        i++;
        for (; i < n; i++) {
          const d = t.charCodeAt(i);
          const v =
            d >= 48 && d <= 57 ? d - 48 : d >= 97 && d <= 102 ? d - 87 : d >= 65 && d <= 70 ? d - 55 : -1;
          if (v < 0) break;
          cp = Math.min(cp * 16 + v, 0x110000);
          digits++;
        }
      } else {
        for (; i < n; i++) {
          const d = t.charCodeAt(i);
          if (d < 48 || d > 57) break;
          cp = Math.min(cp * 10 + (d - 48), 0x110000);
          digits++;
        }
      }
      if (digits === 0 || t.charCodeAt(i) !== 59)
        this.fail(a, 'malformed', 'Référence de caractère mal formée');
      if (!isXmlCodePoint(cp)) this.fail(a, 'invalid-char', 'Référence à un caractère non autorisé en XML');
      return i + 1;
    }
    const e = this.nameEnd(i);
    if (e === i || t.charCodeAt(e) !== 59) {
      this.fail(a, 'malformed', '« & » isolé : il doit être écrit « &amp; »');
    }
    const name = t.slice(i, e);
    if (name !== 'amp' && name !== 'lt' && name !== 'gt' && name !== 'apos' && name !== 'quot') {
      this.fail(
        a,
        'entity',
        `Entité « &${name}; » non autorisée (seules les entités prédéfinies sont acceptées)`,
      );
    }
    return e + 1;
  }
}

/** CRLF when the first line end of the text is CRLF, else LF. */
export function detectNewline(text: string): '\r\n' | '\n' {
  const i = text.indexOf('\n');
  return i > 0 && text.charCodeAt(i - 1) === 13 ? '\r\n' : '\n';
}
