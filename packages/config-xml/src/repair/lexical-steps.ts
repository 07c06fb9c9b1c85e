import {
  countInvalidCharacters,
  DATA_KINDS,
  replaceInData,
  TEXT_ONLY,
} from '../diagnostic/checks/occurrences.ts';
import {
  BARE_AMPERSAND,
  CHAR_REF,
  DOUBLE_ESCAPED,
  CDATA_END,
  INVALID_CHAR,
  isInvalidCharRef,
  STRAY_LESS_THAN,
} from '../diagnostic/checks/patterns.ts';
import { classifyRun, NON_ASCII_RUN, toConvention } from '../diagnostic/encoding-runs.ts';
import { lineIndex } from '../diagnostic/lines.ts';
import type { TRepairChange } from '@synchro/contracts';
import type { TRepairStep } from './types.ts';

/** Characters XML 1.0 forbids, and references to them, are removed (everywhere). */
export const removeInvalidCharacters: TRepairStep = (text) => {
  const { count, first } = countInvalidCharacters(text);
  if (count === 0) return { text, changes: [] };
  const line = lineIndex(text).lineOf(first);
  const cleaned = text
    .replace(INVALID_CHAR, '')
    .replace(CHAR_REF, (ref) => (isInvalidCharRef(ref) ? '' : ref));
  return {
    text: cleaned,
    changes: [
      { code: 'invalid-character', message: `${count} caractère(s) interdit(s) en XML supprimé(s).`, line },
    ],
  };
};

/**
 * A step that replaces every match of `pattern` in text (not in markup) with `replacement`, and
 * reports them as one change with the line of the first.
 */
function escapeInText(
  pattern: RegExp,
  replacement: string,
  code: TRepairChange['code'],
  message: (count: number) => string,
): TRepairStep {
  return (text) => {
    const { text: out, found } = replaceInData(text, pattern, () => replacement, TEXT_ONLY);
    if (found.count === 0) return { text, changes: [] };
    return {
      text: out,
      changes: [{ code, message: message(found.count), line: lineIndex(text).lineOf(found.first) }],
    };
  };
}

/**
 * A '&' that starts no entity becomes '&amp;', in text only: one inside a tag is most likely a
 * damaged name, which the end-tag step can mend (the connector writes no attributes).
 */
export const escapeBareAmpersands = escapeInText(
  BARE_AMPERSAND,
  '&amp;',
  'bare-ampersand',
  (count) => `${count} « & » isolé(s) remplacé(s) par « &amp; ».`,
);

/** A '<' in text that opens no markup (`a < b`) becomes '&lt;'. */
export const escapeStrayLessThan = escapeInText(
  STRAY_LESS_THAN,
  '&lt;',
  'bare-less-than',
  (count) => `${count} « < » isolé(s) remplacé(s) par « &lt; ».`,
);

/** The sequence ']]>' in text, which XML forbids there, becomes ']]&gt;'. */
export const escapeCdataEnd = escapeInText(
  CDATA_END,
  ']]&gt;',
  'cdata-end-in-text',
  (count) => `${count} « ]]> » dans le texte remplacé(s) par « ]]&gt; ».`,
);

/** Double-escaping artefacts lose one level: `&amp;apos;` → `&apos;` (repeated for triple escapes). */
export const undoDoubleEscaping: TRepairStep = (text) => {
  let current = text;
  let count = 0;
  let first = -1;
  for (let pass = 0; pass < 8; pass += 1) {
    // `&amp;apos;` → `&apos;`: only `&`, `;`, letters, digits and `#`, so no segment boundary moves.
    const { text: out, found } = replaceInData(
      current,
      DOUBLE_ESCAPED,
      (match) => `&${match.slice(5)}`,
      DATA_KINDS,
      true,
    );
    if (found.count === 0) break;
    if (first === -1) first = found.first;
    count += found.count;
    current = out;
  }
  if (count === 0) return { text, changes: [] };
  return {
    text: current,
    changes: [
      {
        code: 'double-escaped-entity',
        message: `${count} entité(s) échappée(s) deux fois corrigée(s) (« &amp;apos; » → « &apos; »).`,
        line: lineIndex(text).lineOf(first),
      },
    ],
  };
};

/** Text brought to the connector's convention: plain accented text encoded, extra levels decoded. */
export const normaliseEncoding: TRepairStep = (text) => {
  let plain = 0;
  let multiple = 0;
  let first = -1;
  const { text: out } = replaceInData(
    text,
    NON_ASCII_RUN,
    (run) => {
      let next = '';
      for (const piece of classifyRun(run)) {
        if (piece.level === 0) plain += 1;
        else if (piece.level > 1) multiple += 1;
        next += piece.level === 1 ? piece.text : toConvention(piece);
      }
      return next;
    },
    TEXT_ONLY,
  );
  if (out === text) return { text, changes: [] };
  // First changed offset, for the line of the change.
  for (let i = 0; i < text.length && first === -1; i += 1) if (text[i] !== out[i]) first = i;
  const line = lineIndex(text).lineOf(Math.max(0, first));
  const changes = [];
  if (plain > 0) {
    changes.push({
      code: 'plain-encoding',
      message: `${plain} texte(s) accentué(s) ré-encodé(s) selon la convention du connecteur (UTF-8 relu en Latin-1).`,
      line,
    });
  }
  if (multiple > 0) {
    changes.push({
      code: 'multiple-encoding',
      message: `${multiple} texte(s) encodé(s) plusieurs fois ramené(s) à un seul encodage.`,
      line,
    });
  }
  return { text: out, changes };
};
