/**
 * Typed views of the ConfigConnecteur sections (what the server sends the browser as JSON, every
 * secret replaced by SECRET_PLACEHOLDER) and the save payloads of the console API (the paths and
 * fields of docs/spec-notes.md, Saves of the settings screens). The configuration engine
 * (`@synchro/config-xml`) produces the views and validates the payloads with these schemas. One
 * file per section in `sections/`; `sections/payload.ts` holds the building blocks.
 *
 * Payload schemas accept the loose forms the earlier console sent (`0`/`1`, `'0'`/`'1'` or
 * booleans for switches, numbers as strings, its own codes such as `ART` or `"empty"`) and output
 * one normal form (`z.output`): that normal form is what a re-read of the saved document gives
 * back. Loose forms are normalised there, once, and nowhere else.
 */
export * from './sections/payload.ts';
export * from './sections/info.ts';
export * from './sections/sources.ts';
export * from './sections/external-links.ts';
export * from './sections/external-calendars.ts';
export * from './sections/data-lists.ts';
export * from './sections/sync-data.ts';
export * from './sections/exclusions.ts';
export * from './sections/complement.ts';
export * from './sections/planifications.ts';
export * from './sections/terminals.ts';
