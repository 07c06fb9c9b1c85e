/**
 * A small, strict XML reader for the protocol's messages (orders, answers) and for checking the
 * records the simulator writes: well-formedness by saxes, no DTD, no entity beyond the five
 * predefined ones, elements and text only.
 */
import { SaxesParser } from 'saxes';

export interface XmlElement {
  name: string;
  children: XmlElement[];
  /** Concatenated text and CDATA directly inside the element. */
  text: string;
}

export class XmlReadError extends Error {}

export function parseXml(text: string): XmlElement {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  parser.on('error', (err) => {
    // saxes says `line:column: reason` in English; the position is what helps.
    const at = /^(\d+):(\d+):/.exec(err.message);
    throw new XmlReadError(at ? `mal formé à la ligne ${at[1]}, colonne ${at[2]}` : 'mal formé');
  });
  parser.on('doctype', () => {
    throw new XmlReadError('DTD refusée');
  });
  parser.on('opentag', (tag) => {
    const el: XmlElement = { name: tag.name, children: [], text: '' };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(el);
    else root = el;
    stack.push(el);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  const addText = (t: string) => {
    const el = stack[stack.length - 1];
    if (el) el.text += t;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  parser.write(body).close();
  if (root === null) throw new XmlReadError('aucun élément racine');
  return root;
}

/** The first child named `name`, or undefined. */
export function childOf(el: XmlElement | undefined, name: string): XmlElement | undefined {
  return el?.children.find((c) => c.name === name);
}

/** The text of the first child named `name` (trimmed), or undefined when absent. */
export function childText(el: XmlElement | undefined, name: string): string | undefined {
  const c = childOf(el, name);
  return c === undefined ? undefined : c.text.trim();
}
