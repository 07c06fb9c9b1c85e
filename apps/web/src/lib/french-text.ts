import { formatNumber, NBSP } from './format.ts';

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

/**
 * How long ago, as a French reader says it: « il y a moins d’une minute », « il y a 3 min »,
 * « il y a 5 h », « il y a 2 jours » (the number and its unit never split across lines).
 */
export function formatElapsed(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return 'il y a moins d’une minute';
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `il y a ${minutes}${NBSP}min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `il y a ${hours}${NBSP}h`;
  const days = Math.floor(hours / 24);
  return `il y a ${formatNumber(days)}${NBSP}jour${days > 1 ? 's' : ''}`;
}
