import type { THistorySection, TConfigRawDiff } from '@synchro/contracts';
import {
  decodeConnectorText,
  EDIT_SECTION,
  KIND_OF_SECTION,
  redactPair,
  type ConfigDocument,
} from '@synchro/config-xml';
import { diffLines } from 'diff';

/**
 * The raw view of one section's XML in two versions: the section's text with every secret masked
 * (config-xml's redaction; a secret changed between the two masked by its side), decoded from
 * the connector's convention line by line, compared line by line (jsdiff, docs/decisions.md)
 * with three lines of context around each change.
 */

/** Beyond this many edited lines the two texts are not compared (jsdiff's bound, linear memory). */
const MAX_EDIT = 4000;
const CONTEXT = 3;

const WRAP_OPEN = '<Connexion>';
const WRAP_CLOSE = '</Connexion>';

/** A section's text, wrapped in its root (the redaction reads a document); null when absent. */
function wrappedSection(doc: ConfigDocument, section: THistorySection): string | null {
  const raw = doc.sectionText(EDIT_SECTION[KIND_OF_SECTION[section]]);
  return raw === null ? null : `${WRAP_OPEN}${raw}${WRAP_CLOSE}`;
}

/** A masked section's text as shown: without its root, decoded line by line. */
function shown(masked: string | null): string {
  if (masked === null) return '';
  return masked
    .slice(WRAP_OPEN.length, -WRAP_CLOSE.length)
    .split(/\r?\n/)
    .map((line) => decodeConnectorText(line))
    .join('\n');
}

/**
 * A section's text in two versions as shown: secrets masked (a secret changed between them masked
 * by its side, config-xml redactPair), decoded; '' for a version that lacks it.
 */
export function shownSections(
  older: ConfigDocument,
  newer: ConfigDocument,
  section: THistorySection,
): { before: string; after: string } {
  const before = wrappedSection(older, section);
  const after = wrappedSection(newer, section);
  const masked = redactPair(before ?? WRAP_OPEN + WRAP_CLOSE, after ?? WRAP_OPEN + WRAP_CLOSE);
  return {
    before: shown(before === null ? null : masked.before),
    after: shown(after === null ? null : masked.after),
  };
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
