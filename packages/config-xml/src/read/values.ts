import { displayValue } from '../codec.ts';
import { childNamed, xmlText, type XElement } from '../xml/tree.ts';

/**
 * Value helpers over the lossless tree, for the edits (the readers use the element index, see
 * ix-values.ts). Values are display values: decoded from the connector's convention.
 */

/** Display value of the child `name` of `el`, or null when absent. */
export function valueOf(el: XElement | null | undefined, name: string): string | null {
  const c = childNamed(el, name);
  return c ? displayValue(xmlText(c)) : null;
}

/** Display value of the child, '' when absent. */
export function textOf(el: XElement | null | undefined, name: string): string {
  return valueOf(el, name) ?? '';
}

/** Switch value: '1', 'true', 'oui', 'vrai', 'yes' (any case) and positive numbers are true. */
export function isTrue(v: string | null): boolean {
  if (v === null) return false;
  const t = v.trim().toLowerCase();
  if (t === 'true' || t === 'oui' || t === 'vrai' || t === 'yes') return true;
  return /^\+?\d+$/.test(t) && Number(t) > 0;
}
