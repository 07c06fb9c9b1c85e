import { SECRET_PLACEHOLDER } from '@synchro/contracts';
import { isPlainAscii, type ElementIndex } from '../xml/index.ts';
import { isTrue } from './values.ts';

/**
 * Value helpers over the element index (the readers' fast path). An element is a number; -1
 * stands for an absent one, and every helper accepts it.
 */

/** The first root child named `name` (-1 when absent). */
export function rootSection(ix: ElementIndex, name: string): number {
  return ix.child(0, name);
}

/** Display value of the child, '' when absent. */
export function textOf(ix: ElementIndex, el: number, name: string): string {
  return ix.childValue(el, name) ?? '';
}

/** textOf for a name looked up once (`id` from ix.idOf, -1 when no element has the name). */
export function textOfId(ix: ElementIndex, el: number, id: number): string {
  const c = ix.childWithId(el, id);
  return c < 0 ? '' : ix.value(c);
}

/** Characters String.prototype.trim removes, among those a plain ASCII value can hold. */
function isTrimmed(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/**
 * Whether the display value of `el`, trimmed, is `s` (-1: the value is ''), decided in place when
 * that value is the element's source text itself (plain ASCII, see ElementIndex.value): no string
 * is cut for it. null when it is not plain: the caller reads the value.
 */
export function trimmedValueIs(ix: ElementIndex, el: number, s: string): boolean | null {
  if (el < 0) return s === '';
  const t = ix.text;
  let from = ix.openEnd[el] as number;
  let to = ix.closeStart(el);
  if (!isPlainAscii(t, from, to)) return null;
  while (from < to && isTrimmed(t.charCodeAt(from))) from++;
  while (to > from && isTrimmed(t.charCodeAt(to - 1))) to--;
  if (to - from !== s.length) return false;
  for (let k = 0; k < s.length; k++) if (t.charCodeAt(from + k) !== s.charCodeAt(k)) return false;
  return true;
}

export function secretOf(ix: ElementIndex, el: number, name: string): string {
  const c = ix.child(el, name);
  return c >= 0 && ix.xmlText(c) !== '' ? SECRET_PLACEHOLDER : '';
}

export function intOf(ix: ElementIndex, el: number, name: string): number | null {
  const v = ix.childValue(el, name);
  if (v === null) return null;
  const t = v.trim();
  return /^[+-]?\d+$/.test(t) ? Number(t) : null;
}

export function numberOf(ix: ElementIndex, el: number, name: string): number | null {
  const v = ix.childValue(el, name);
  if (v === null) return null;
  const t = v.trim().replace(/\s/g, '').replace(',', '.');
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(t)) return null;
  return Number(t);
}

export function flagOf(ix: ElementIndex, el: number, name: string): boolean {
  return isTrue(ix.childValue(el, name));
}

export function nonEmptyOf(ix: ElementIndex, el: number, name: string): string | null {
  const v = ix.childValue(el, name);
  if (v === null) return null;
  const t = v.trim();
  return t === '' ? null : t;
}

export function digitsOf(ix: ElementIndex, el: number, name: string): string | null {
  const v = nonEmptyOf(ix, el, name);
  return v !== null && /^\d{8,17}$/.test(v) ? v : null;
}
