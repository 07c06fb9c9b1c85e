/**
 * The import record's XML in the editor (docs/spec-notes.md, Import history and transaction trace):
 * parsed in the browser (DOMParser, DOCTYPE refused), its leaf fields grouped by parent, attached
 * documents (`Table` ged/images with NomDocument/BinaireDocument or NomFichier/Photo) kept apart,
 * and the document serialised back with the edited values (escaped once, by the serialiser).
 *
 * A record may hold tens of MB of base64 in one element. The large contents of those elements are
 * cut out of the text before parsing and put back, as they were, after serialising: the browser
 * parses and serialises a document of a few KB, and the base64 is never copied into the DOM.
 */

import { utf8ByteLength } from '@synchro/contracts';
import { LongText, UserFacingError } from '../../lib/api-client.ts';

export class RecordXmlError extends UserFacingError {
  override readonly name = 'RecordXmlError';
}

/** An edited value that cannot be written as UTF-8 XML (a lone surrogate, a control character). */
export class RecordEncodingError extends UserFacingError {
  override readonly name = 'RecordEncodingError';
  constructor(readonly tag: string) {
    super(`Erreur d'encodage pour le champ ${tag}`);
  }
}

/** One editable leaf: an element without element children. */
export interface RecordField {
  /** Position among the record's leaves: the key of its edit. */
  index: number;
  name: string;
  value: string;
  /** Shown in a text area: several lines or a long text. */
  multiline: boolean;
}

/** A document attached to the record, or another content too large to be a field. */
export interface RecordAttachment {
  key: string;
  /** `BinaireDocument` / `Photo` (or the name of a large element outside an attachment table). */
  contentElement: string;
  /** The field holding the file name (`NomDocument` / `NomFichier`), when there is one. */
  nameField: number | null;
  /** Bytes the base64 decodes to. */
  size: number;
  /** False for a large value outside a ged/images table: shown with its size, not downloadable. */
  isDocument: boolean;
}

export interface RecordGroup {
  key: string;
  /** The parent element's path below the root ('Enregistrement', 'Lignes › Ligne 2'). */
  title: string;
  fields: RecordField[];
  attachments: RecordAttachment[];
}

export interface OpenedRecord {
  groups: RecordGroup[];
  fields: RecordField[];
  attachments: RecordAttachment[];
  /** Total UTF-8 bytes of the record as received. */
  rootName: string;
  /**
   * The record with `edits` applied (index → value), as text ready to send, and its UTF-8 bytes
   * (counted without going over the large contents again).
   */
  serialize: (edits: ReadonlyMap<number, string>) => { xml: LongText; sizeBytes: number };
  /** The base64 of an attachment, as stored. */
  attachmentBase64: (attachment: RecordAttachment) => string;
}

const DOCUMENT_PAIRS = [
  ['NomDocument', 'BinaireDocument'],
  ['NomFichier', 'Photo'],
] as const;
const CONTENT_ELEMENTS = new Set<string>(DOCUMENT_PAIRS.map(([, content]) => content));
const ATTACHMENT_TABLES = new Set(['ged', 'images']);

/** A document's content larger than this is cut out before parsing. */
const CUT_THRESHOLD = 4096;
/** A value larger than this is not offered as a field (shown with its size). */
const LARGE_VALUE = 100_000;
/** A field longer than this is shown in a text area. */
const LONG_VALUE = 120;

// eslint-disable-next-line no-control-regex -- these are the characters XML 1.0 refuses
const FORBIDDEN_XML_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Where the root element starts, after the declaration, comments, processing instructions and
 * blanks; a DOCTYPE is refused (no DTD, no entity: the server refuses them too).
 */
function rootStart(text: string): number {
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end < 0) throw new RecordXmlError('Déclaration XML non terminée.');
      i = end + 2;
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) throw new RecordXmlError('Commentaire non terminé.');
      i = end + 3;
    } else if (/^<!DOCTYPE/i.test(text.slice(i, i + 9))) {
      throw new RecordXmlError('Les déclarations DOCTYPE ne sont pas acceptées dans un enregistrement.');
    } else if (text[i] === '<') {
      return i;
    } else {
      throw new RecordXmlError(i >= text.length ? 'Document XML vide.' : 'Texte avant l’élément racine.');
    }
  }
}

interface CutText {
  text: string;
  /** token → the original content, as written in the record. */
  contents: Map<string, string>;
  /** token → UTF-8 bytes of that content. */
  contentBytes: Map<string, number>;
}

/**
 * Replaces the large contents of the attachment elements by unique tokens. Only a content without
 * markup is cut (plain base64, possibly with blanks or character references), so that putting it
 * back gives the record as it was.
 */
function cutLargeContents(text: string): CutText {
  const contents = new Map<string, string>();
  const contentBytes = new Map<string, number>();
  const salt = Math.random().toString(36).slice(2, 10);
  let out = '';
  let from = 0;
  let searchFrom = 0;
  for (;;) {
    const open = nextCandidate(text, searchFrom);
    if (open < 0) break;
    const name = [...CONTENT_ELEMENTS].find((candidate) => {
      if (!text.startsWith(candidate, open + 1)) return false;
      const after = text[open + 1 + candidate.length];
      return after === '>' || (after !== undefined && /\s/.test(after));
    });
    const tagEnd = name ? text.indexOf('>', open) : -1;
    if (!name || tagEnd < 0 || text[tagEnd - 1] === '/') {
      searchFrom = open + 1;
      continue;
    }
    const close = text.indexOf(`</${name}`, tagEnd + 1);
    if (close < 0) break;
    const content = text.slice(tagEnd + 1, close);
    if (content.length > CUT_THRESHOLD && !content.includes('<')) {
      const token = `SYNCHROCONTENU${contents.size}X${salt}`;
      contents.set(token, content);
      // Base64 is ASCII: one byte a character (the usual case, one quick test).
      contentBytes.set(token, /[^\x20-\x7e\t\n\r]/.test(content) ? utf8ByteLength(content) : content.length);
      out += text.slice(from, tagEnd + 1) + token;
      from = close;
    }
    searchFrom = close + 2;
  }
  return { text: from === 0 ? text : out + text.slice(from), contents, contentBytes };
}

/** The next `<BinaireDocument` or `<Photo` from `from` (-1 when none). */
function nextCandidate(text: string, from: number): number {
  let best = -1;
  for (const candidate of CONTENT_ELEMENTS) {
    const at = text.indexOf(`<${candidate}`, from);
    if (at >= 0 && (best < 0 || at < best)) best = at;
  }
  return best;
}

/** Decoded bytes of a base64 text (blanks and character references not counted). */
function base64Size(content: string): number {
  const clean = /[^A-Za-z0-9+/=]/.test(content) ? cleanBase64(content) : content;
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

/** Base64 without blanks, line-break references (`&#13;`, `&#xA;`) and CDATA markers. */
export function cleanBase64(content: string): string {
  return content.replace(/&#x?[0-9a-f]+;|<!\[CDATA\[|\]\]>|\s+/gi, '');
}

function elementChildren(el: Element): Element[] {
  const out: Element[] = [];
  for (let child = el.firstElementChild; child; child = child.nextElementSibling) out.push(child);
  return out;
}

/** True when the nearest `Table` leaf at or above `el` reads ged or images. */
function inAttachmentTable(el: Element | null): boolean {
  for (let a = el; a; a = a.parentElement) {
    const table = elementChildren(a).find((c) => c.nodeName === 'Table' && c.firstElementChild === null);
    if (table) return ATTACHMENT_TABLES.has((table.textContent ?? '').trim().toLowerCase());
  }
  return false;
}

/** 'Lignes › Ligne 2': the element's path below the root, siblings of the same name numbered. */
function groupTitle(el: Element, root: Element): string {
  if (el === root) return root.nodeName;
  const names: string[] = [];
  for (let a: Element | null = el; a && a !== root; a = a.parentElement) {
    const parent = a.parentElement;
    const same = parent ? elementChildren(parent).filter((c) => c.nodeName === a!.nodeName) : [];
    names.push(same.length > 1 ? `${a.nodeName} ${same.indexOf(a) + 1}` : a.nodeName);
  }
  return names.reverse().join(' › ');
}

function parseXml(text: string): XMLDocument {
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  const error = doc.getElementsByTagName('parsererror')[0];
  if (error) {
    const detail = (error.textContent ?? '').replace(/\s+/g, ' ').trim();
    throw new RecordXmlError(detail ? `XML illisible : ${detail}` : 'XML illisible.');
  }
  return doc;
}

/** Reads a record's XML for the editor. Throws RecordXmlError when it cannot be read safely. */
export function openRecord(enreg: string): OpenedRecord {
  const bom = enreg.startsWith('\ufeff') ? '\ufeff' : '';
  const body = enreg.slice(bom.length);
  const start = rootStart(body);
  const cut = cutLargeContents(body);
  const doc = parseXml(cut.text);
  const root = doc.documentElement;
  // The prolog and what follows the root are kept as written (declaration, comments, blanks).
  const prolog = body.slice(0, start);
  const rootClose = cut.text.lastIndexOf(`</${root.nodeName}`);
  const epilog = rootClose < 0 ? '' : cut.text.slice(cut.text.indexOf('>', rootClose) + 1);

  const leaves: Element[] = [];
  const fields: RecordField[] = [];
  const attachments: RecordAttachment[] = [];
  const groups = new Map<Element, RecordGroup>();
  const attachmentOf = new Map<RecordAttachment, Element>();
  const tokenOf = (el: Element) => {
    const text = el.textContent ?? '';
    return cut.contents.has(text) ? text : null;
  };
  const groupOf = (parent: Element): RecordGroup => {
    let group = groups.get(parent);
    if (!group) {
      group = { key: `g${groups.size}`, title: groupTitle(parent, root), fields: [], attachments: [] };
      groups.set(parent, group);
    }
    return group;
  };

  const walk = (el: Element) => {
    const children = elementChildren(el);
    if (children.length === 0 && el !== root) {
      const parent = el.parentElement ?? root;
      const token = tokenOf(el);
      const value = token ? '' : (el.textContent ?? '');
      const isContent = CONTENT_ELEMENTS.has(el.nodeName) && inAttachmentTable(parent);
      if (isContent || token || value.length > LARGE_VALUE) {
        const raw = token ? cut.contents.get(token)! : value;
        const attachment: RecordAttachment = {
          key: `a${attachments.length}`,
          contentElement: el.nodeName,
          nameField: null,
          size: base64Size(raw),
          isDocument: isContent,
        };
        attachments.push(attachment);
        attachmentOf.set(attachment, el);
        groupOf(parent).attachments.push(attachment);
        return;
      }
      const field: RecordField = {
        index: leaves.length,
        name: el.nodeName,
        value,
        multiline: value.includes('\n') || value.length > LONG_VALUE,
      };
      leaves.push(el);
      fields.push(field);
      groupOf(parent).fields.push(field);
      return;
    }
    for (const child of children) walk(child);
  };
  walk(root);

  // Each document's name field: the pair's name element beside its content. A name without its
  // content is a document too (its download says what is missing).
  for (const [parent, group] of groups) {
    if (!inAttachmentTable(parent)) continue;
    const children = elementChildren(parent);
    for (const [nameElement, contentElement] of DOCUMENT_PAIRS) {
      const nameEl = children.find((c) => c.nodeName === nameElement);
      const index = nameEl ? leaves.indexOf(nameEl) : -1;
      const attachment = group.attachments.find((a) => a.isDocument && a.contentElement === contentElement);
      if (attachment) attachment.nameField = index >= 0 ? index : null;
      else if (index >= 0) {
        const missing: RecordAttachment = {
          key: `a${attachments.length}`,
          contentElement,
          nameField: index,
          size: 0,
          isDocument: true,
        };
        attachments.push(missing);
        group.attachments.push(missing);
      }
    }
  }

  const serialize = (edits: ReadonlyMap<number, string>) => {
    for (const [index, value] of edits) {
      const leaf = leaves[index];
      if (!leaf) continue;
      if (LONE_SURROGATE.test(value) || FORBIDDEN_XML_CHARS.test(value)) {
        throw new RecordEncodingError(leaf.nodeName);
      }
    }
    for (const [index, value] of edits) {
      const leaf = leaves[index];
      if (leaf && leaf.textContent !== value) leaf.textContent = value;
    }
    const small = bom + prolog + new XMLSerializer().serializeToString(root) + epilog;
    let sizeBytes = utf8ByteLength(small);
    for (const [token, bytes] of cut.contentBytes) {
      if (small.includes(token)) sizeBytes += bytes - token.length;
    }
    return { xml: new LongText(restoreContents(small, cut.contents)), sizeBytes };
  };

  const attachmentBase64 = (attachment: RecordAttachment): string => {
    const el = attachmentOf.get(attachment);
    if (!el) return '';
    const token = tokenOf(el);
    return cleanBase64(token ? cut.contents.get(token)! : (el.textContent ?? ''));
  };

  return {
    groups: [...groups.values()],
    fields,
    attachments,
    rootName: root.nodeName,
    serialize,
    attachmentBase64,
  };
}

/** Puts the cut contents back in place of their tokens (one pass, no pattern in the contents). */
function restoreContents(xml: string, contents: Map<string, string>): string[] {
  if (contents.size === 0) return [xml];
  const parts: string[] = [];
  let from = 0;
  const found = [...contents.keys()]
    .map((token) => ({ token, at: xml.indexOf(token) }))
    .filter((t) => t.at >= 0)
    .sort((a, b) => a.at - b.at);
  for (const { token, at } of found) {
    parts.push(xml.slice(from, at), contents.get(token)!);
    from = at + token.length;
  }
  parts.push(xml.slice(from));
  return parts;
}

/** Decodes base64 into a Blob, a few MB at a time. Throws on a text that is not base64. */
export function base64ToBlob(base64: string, type = 'application/octet-stream'): Blob {
  if (base64.length % 4 === 1 || /[^A-Za-z0-9+/=]/.test(base64)) throw new Error('base64 invalide');
  const chunk = 4 * 1024 * 1024; // a multiple of 4: each slice decodes on its own
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for (let i = 0; i < base64.length; i += chunk) {
    const binary = atob(base64.slice(i, i + chunk));
    const bytes = new Uint8Array(binary.length);
    for (let k = 0; k < binary.length; k++) bytes[k] = binary.charCodeAt(k);
    parts.push(bytes);
  }
  return new Blob(parts, { type });
}
