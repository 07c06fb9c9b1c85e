/** Display rules of the diagnostic screen (docs/spec-notes.md, Web: Diagnostic). */
import { formatNumber } from '../../lib/format.ts';

/** The server's mark for a value that is absent from the document. */
export const NOT_COMMUNICATED = 'NC';
export const NOT_COMMUNICATED_LABEL = 'Non Communiqué';

/** Longest value shown in full; longer ones are cut and keep the full text in a tooltip. */
export const MAX_VALUE_CHARS = 50;

export type ExtractedValue =
  | { kind: 'not-communicated' }
  | { kind: 'error'; text: string; shown: string; cut: boolean }
  | { kind: 'value'; text: string; shown: string; cut: boolean };

/** The first `max` characters (code points, so an emoji is never split) and an ellipsis. */
export function cutValue(text: string, max = MAX_VALUE_CHARS): { shown: string; cut: boolean } {
  const chars = Array.from(text);
  if (chars.length <= max) return { shown: text, cut: false };
  return { shown: `${chars.slice(0, max).join('')}…`, cut: true };
}

export function readExtractedValue(text: string): ExtractedValue {
  if (text === NOT_COMMUNICATED) return { kind: 'not-communicated' };
  const { shown, cut } = cutValue(text);
  return { kind: text.startsWith('Error:') ? 'error' : 'value', text, shown, cut };
}

// French typography on the server's texts: lib/french-text.ts (the dashboard's toasts use it too).
export { frenchSpacing } from '../../lib/french-text.ts';

/** What a repair changed, in words: "Aucune modification nécessaire", "1 modification effectuée"… */
export function changesText(count: number): string {
  if (count === 0) return 'Aucune modification nécessaire';
  return count === 1 ? '1 modification effectuée' : `${formatNumber(count)} modifications effectuées`;
}
