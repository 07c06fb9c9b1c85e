/**
 * Reading a text column exactly as stored, byte order mark included. PGlite decodes every text
 * field with a default TextDecoder, which drops a leading U+FEFF (BOM): a configuration or a
 * record that starts with one would come back without it (and a save would then write it back
 * without it). Selecting the column behind one ASCII character keeps the BOM off the front of the
 * decoded field; `storedText` removes that character. Harmless on node-postgres (same result).
 */

/** The SQL select item `'.' || <expression> AS "<alias>"` (NULL stays NULL). */
export function exactText(expression: string, alias: string): string {
  return `'.' || ${expression} AS "${alias}"`;
}

/** The stored value of a column selected with exactText. */
export function storedText(selected: string): string;
export function storedText(selected: string | null): string | null;
export function storedText(selected: string | null): string | null {
  return selected === null ? null : selected.slice(1);
}
