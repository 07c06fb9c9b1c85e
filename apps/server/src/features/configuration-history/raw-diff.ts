import type { THistorySection, TConfigRawDiff } from '@synchro/contracts';
import {
  decodeConnectorText,
  EDIT_SECTION,
  KIND_OF_SECTION,
  redactConfig,
  type ConfigDocument,
} from '@synchro/config-xml';
import { diffLines } from 'diff';

/**
 * The raw view of one section's XML in two versions: the section's text with every secret masked
 * (config-xml's redaction), decoded from the connector's convention line by line, compared line
 * by line (jsdiff, docs/decisions.md) with three lines of context around each change.
 */

/** Beyond this many edited lines the two texts are not compared (jsdiff's bound, linear memory). */
const MAX_EDIT = 4000;
const CONTEXT = 3;

const WRAP_OPEN = '<Connexion>';
const WRAP_CLOSE = '</Connexion>';

/** A section's text as shown: secrets masked, decoded; '' when the version lacks it. */
export function shownSection(doc: ConfigDocument, section: THistorySection): string {
  const raw = doc.sectionText(EDIT_SECTION[KIND_OF_SECTION[section]]);
  if (raw === null) return '';
  // The redaction reads a document: the section alone, wrapped in its root.
  const masked = redactConfig(`${WRAP_OPEN}${raw}${WRAP_CLOSE}`).slice(WRAP_OPEN.length, -WRAP_CLOSE.length);
  return masked
    .split(/\r?\n/)
    .map((line) => decodeConnectorText(line))
    .join('\n');
}

export function rawDiff(before: string, after: string, section: THistorySection): TConfigRawDiff {
  const changes = diffLines(before, after, { maxEditLength: MAX_EDIT });
  if (!changes) return { section, lines: [], tooLarge: true };
  const all: { op: ' ' | '-' | '+'; text: string }[] = [];
  for (const c of changes) {
    const op = c.added ? '+' : c.removed ? '-' : ' ';
    const lines = c.value.split('\n');
    if (lines.at(-1) === '') lines.pop();
    for (const text of lines) all.push({ op, text });
  }
  const near = new Uint8Array(all.length);
  all.forEach((l, i) => {
    if (l.op === ' ') return;
    for (let k = Math.max(0, i - CONTEXT); k <= Math.min(all.length - 1, i + CONTEXT); k++) near[k] = 1;
  });
  const lines: TConfigRawDiff['lines'] = [];
  let skipped = 0;
  all.forEach((l, i) => {
    if (near[i]) {
      if (skipped > 0) lines.push({ skipped });
      skipped = 0;
      lines.push(l);
    } else skipped++;
  });
  if (skipped > 0 && lines.length > 0) lines.push({ skipped });
  return { section, lines, tooLarge: false };
}
