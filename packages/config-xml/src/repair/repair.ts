import type { TRepairChange } from '@synchro/contracts';
import { diagnoseConfig } from '../diagnostic/diagnose.ts';
import { withSegmentTable } from '../diagnostic/segments.ts';
import { WANTED_PATHS } from '../diagnostic/extraction.ts';
import { walkLenient } from '../diagnostic/lenient-tree.ts';
import { strictScan } from '../diagnostic/well-formed.ts';
import { ConfigXmlError } from '../errors.ts';
import { checkSize } from '../xml/scan.ts';
import { fixEndTags } from './end-tags.ts';
import {
  escapeBareAmpersands,
  escapeCdataEnd,
  escapeStrayLessThan,
  normaliseEncoding,
  removeInvalidCharacters,
  undoDoubleEscaping,
} from './lexical-steps.ts';
import { addMissingSections } from './sections.ts';
import type { TRepairStep } from './types.ts';

export interface TRepairResult {
  text: string;
  changes: TRepairChange[];
}

/** Character-level steps, in order; none of them adds or removes a line. */
const LEXICAL_STEPS: readonly TRepairStep[] = [
  removeInvalidCharacters,
  escapeBareAmpersands,
  escapeCdataEnd,
  escapeStrayLessThan,
  escapeCdataEnd,
  undoDoubleEscaping,
  normaliseEncoding,
];

/**
 * Repair the common faults of a ConfigConnecteur document (see README "Diagnostic and repair").
 * Returns the repaired text and what changed; a document with none of these faults comes back
 * identical with no change. Throws ConfigXmlError ('repair-ambiguous', 'repair-refused') when it
 * cannot repair without guessing; what it returns is always valid for diagnoseConfig.
 */
export function repairConfig(text: string): TRepairResult {
  return withSegmentTable(() => repair(text));
}

function repair(text: string): TRepairResult {
  if (typeof text !== 'string' || text.trim() === '') {
    throw new ConfigXmlError('repair-refused', 'Aucun XML de configuration à réparer.');
  }
  checkSize(text);
  const changes: TRepairChange[] = [];
  let current = text;
  const apply = (step: TRepairStep): void => {
    const result = step(current);
    current = result.text;
    changes.push(...result.changes);
  };
  for (const step of LEXICAL_STEPS) apply(step);
  const scan = strictScan(current, !walkLenient(current, WANTED_PATHS).balanced);
  if (scan.doctype) {
    throw new ConfigXmlError(
      'repair-refused',
      'Le document contient une déclaration DOCTYPE : réparation automatique refusée.',
    );
  }
  // Tags are only touched when the document is not well-formed, so valid mixed content stays.
  if (scan.fault !== null) apply(fixEndTags);
  apply(addMissingSections);

  const check = diagnoseConfig(current);
  if (!check.isValid) {
    throw new ConfigXmlError(
      'repair-ambiguous',
      `Réparation automatique impossible sans deviner : ${check.parseError ?? 'document toujours invalide'}.`,
      check.problematicLine !== null ? { line: check.problematicLine } : {},
    );
  }
  // The engine must read back what it writes: a valid diagnostic means the package parser
  // (parseConfig) accepted the text already (diagnose's parserRefusal), so it is not parsed again.
  return { text: current, changes };
}
