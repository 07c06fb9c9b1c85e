/** The top-level sections of a ConfigConnecteur document. */

export { ROOT_NAME } from '../xml/scan.ts';

/** Legacy top-level order (legacy-system.md §2), shared with the editors: missing sections go there. */
export { SECTION_ORDER as LEGACY_SECTION_ORDER } from '../document.ts';

/**
 * Sections without which the console cannot do its job (Général reads Info and Sources, the
 * terminal screen reads Terminaux): their absence is an error. The other legacy sections are
 * expected (a warning when missing): a connector that never synchronised has no DerSynchro, etc.
 */
export const REQUIRED_SECTIONS: ReadonlySet<string> = new Set(['Info', 'Sources', 'Terminaux']);

/** Largest document accepted (spec §9): 50 MB of UTF-8. */
export const MAX_CONFIG_BYTES = 50 * 1024 * 1024;

/** UTF-8 size of a text, without allocating it. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff) {
      // A surrogate pair: 4 bytes for 2 UTF-16 units.
      bytes += 2;
      i += 1;
    } else bytes += 2;
  }
  return bytes;
}
