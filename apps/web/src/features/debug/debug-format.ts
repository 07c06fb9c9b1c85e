/** Display rules of the extraction results (spec §2 "Diagnostic"). */

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

/**
 * French typography on the server's texts: non-breaking spaces inside « » and before ':' (U+00A0),
 * narrow ones before '; ! ?' (U+202F), so that « & » never breaks across lines.
 */
export function frenchSpacing(text: string): string {
  return text
    .replace(/« /g, '«\u00a0')
    .replace(/ »/g, '\u00a0»')
    .replace(/ :(?=\s|$)/g, '\u00a0:')
    .replace(/ ([;!?])(?=\s|$)/g, '\u202f$1');
}
