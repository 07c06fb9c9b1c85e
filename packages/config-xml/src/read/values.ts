import { SECRET_PLACEHOLDER } from '@synchro/contracts';
import { displayValue } from '../codec.ts';
import { childNamed, xmlText, type XElement } from '../xml/tree.ts';

/** Display value of the child `name` of `el` (decoded from the connector's convention), or null when absent. */
export function valueOf(el: XElement | null | undefined, name: string): string | null {
  const c = childNamed(el, name);
  return c ? displayValue(xmlText(c)) : null;
}

/** Display value of the child, '' when absent. */
export function textOf(el: XElement | null | undefined, name: string): string {
  return valueOf(el, name) ?? '';
}

/** Display value of an element itself. */
export function display(el: XElement): string {
  return displayValue(xmlText(el));
}

/** The placeholder when the child holds a secret, '' when it is empty or absent. */
export function secretOf(el: XElement | null | undefined, name: string): string {
  const c = childNamed(el, name);
  return c && xmlText(c) !== '' ? SECRET_PLACEHOLDER : '';
}

/** Integer value ('1', ' -1 '), null when absent, empty or not an integer. */
export function intOf(el: XElement | null | undefined, name: string): number | null {
  const v = valueOf(el, name);
  if (v === null) return null;
  const t = v.trim();
  return /^[+-]?\d+$/.test(t) ? Number(t) : null;
}

/** Number value (a decimal comma accepted: '12,5'), null when absent or not a number. */
export function numberOf(el: XElement | null | undefined, name: string): number | null {
  const v = valueOf(el, name);
  if (v === null) return null;
  const t = v.trim().replace(/\s/g, '').replace(',', '.');
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(t)) return null;
  return Number(t);
}

/** Switch value: '1', 'true', 'oui', 'vrai' (any case) and positive numbers are true. */
export function flagOf(el: XElement | null | undefined, name: string): boolean {
  return isTrue(valueOf(el, name));
}

export function isTrue(v: string | null): boolean {
  if (v === null) return false;
  const t = v.trim().toLowerCase();
  if (t === 'true' || t === 'oui' || t === 'vrai' || t === 'yes') return true;
  return /^\+?\d+$/.test(t) && Number(t) > 0;
}

/** Trimmed value, null when absent or empty. */
export function nonEmptyOf(el: XElement | null | undefined, name: string): string | null {
  const v = valueOf(el, name);
  if (v === null) return null;
  const t = v.trim();
  return t === '' ? null : t;
}

/** A connector timestamp as stored (8 to 17 digits), null otherwise. */
export function digitsOf(el: XElement | null | undefined, name: string): string | null {
  const v = nonEmptyOf(el, name);
  return v !== null && /^\d{8,17}$/.test(v) ? v : null;
}
