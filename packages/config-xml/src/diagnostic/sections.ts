/** The top-level sections of a ConfigConnecteur document. */

export { ROOT_NAME } from '../xml/scan.ts';

/**
 * Legacy top-level order (docs/spec-notes.md, The configuration document), shared with the
 * editors: missing sections go there.
 */
export { SECTION_ORDER as LEGACY_SECTION_ORDER } from '../document.ts';

/**
 * Sections without which the console cannot do its job (Général reads Info and Sources, the
 * terminal screen reads Terminaux): their absence is an error. The other legacy sections are
 * expected (a warning when missing): a connector that never synchronised has no DerSynchro, etc.
 */
export const REQUIRED_SECTIONS: ReadonlySet<string> = new Set(['Info', 'Sources', 'Terminaux']);
