import type { TRepairChange } from '@synchro/contracts';
import { WANTED_PATHS } from '../diagnostic/extraction.ts';
import { walkLenient } from '../diagnostic/lenient-tree.ts';
import { detectLineEnding } from '../diagnostic/lines.ts';
import { LEGACY_SECTION_ORDER, ROOT_NAME } from '../diagnostic/sections.ts';
import { ConfigXmlError } from '../errors.ts';
import type { TRepairStep } from './types.ts';

/** Indentation of the first top-level section's line, or two spaces. */
function sectionIndent(text: string, offset: number | undefined): string {
  if (offset === undefined) return '  ';
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  return /^[ \t]*$/.test(before) && before !== '' ? before : '  ';
}

/**
 * Missing legacy top-level sections are added empty (`<Name/>`), each after the nearest section
 * that comes before it in the legacy order, with the document's line ending and indentation.
 * Runs on a well-formed document whose root is <Connexion>.
 */
export const addMissingSections: TRepairStep = (text) => {
  // The diagnostic's walk (shared with the check that follows when nothing is added); only the
  // root and the sections are read here.
  const tree = walkLenient(text, WANTED_PATHS);
  const root = tree.root;
  if (root === null || root.name !== ROOT_NAME) {
    throw new ConfigXmlError(
      'repair-ambiguous',
      `L’élément racine n’est pas <${ROOT_NAME}> : réparation automatique impossible sans deviner.`,
    );
  }
  const present = new Map<string, number>();
  for (const section of tree.sections) if (!present.has(section.name)) present.set(section.name, section.end);
  const missing = LEGACY_SECTION_ORDER.filter((name) => !present.has(name));
  if (missing.length === 0) return { text, changes: [] };

  const eol = detectLineEnding(text);
  const indent = sectionIndent(text, tree.sections[0]?.start);
  const changes: TRepairChange[] = missing.map((name) => ({
    code: 'missing-section',
    message: `Section <${name}> absente ajoutée (vide).`,
  }));

  if (root.selfClosing) {
    const body = missing.map((name) => `${eol}${indent}<${name}/>`).join('');
    return {
      text: `${text.slice(0, root.start)}<${ROOT_NAME}>${body}${eol}</${ROOT_NAME}>${text.slice(root.startTagEnd)}`,
      changes,
    };
  }
  // Group the missing sections by insertion point (offset after the section they follow).
  const inserts = new Map<number, string[]>();
  for (const name of missing) {
    const rank = LEGACY_SECTION_ORDER.indexOf(name);
    let at = root.startTagEnd;
    for (const before of LEGACY_SECTION_ORDER.slice(0, rank)) {
      const end = present.get(before);
      if (end !== undefined && end > at) at = end;
    }
    inserts.set(at, [...(inserts.get(at) ?? []), name]);
  }
  let out = '';
  let copied = 0;
  for (const at of [...inserts.keys()].sort((a, b) => a - b)) {
    const names = inserts.get(at) ?? [];
    let block = names.map((name) => `${eol}${indent}<${name}/>`).join('');
    if (!text.slice(at, root.endTagStart).includes('\n') && at <= root.endTagStart) block += eol;
    out += text.slice(copied, at) + block;
    copied = at;
  }
  out += text.slice(copied);
  return { text: out, changes };
};
