import type { TRepairResponse, TXmlStatusResponse } from '@synchro/contracts';
import { ConfigXmlError, diagnoseConfig, hideSecretNamesIn, repairConfig } from '@synchro/config-xml';
import { AppError } from '../../http/errors.ts';
import { defineTask } from '../../offload/task.ts';

/**
 * The Diagnostic screen's work on the stored text (up to 60 MB): pure, run in a worker thread for
 * a big document (offload/pool.ts).
 */

export const diagnoseTask = defineTask('debug.diagnose', (text: string): TXmlStatusResponse =>
  diagnoseConfig(text),
);

export interface Repaired {
  text: string;
  changes: TRepairResponse['changes'];
  /** The diagnostic of the repaired text (of the stored one when nothing changed). */
  diagnostic: TXmlStatusResponse;
}

/** The repaired text; 422 when the repair would have to guess (its message names no secret). */
export const repairTask = defineTask('debug.repair', (text: string): Repaired => {
  let repaired: { text: string; changes: TRepairResponse['changes'] };
  try {
    repaired = repairConfig(text);
  } catch (err) {
    // A `<` inside a password reads as a tag, which the refusal would name.
    if (err instanceof ConfigXmlError)
      throw new AppError(422, hideSecretNamesIn(text, err.message), err.code);
    throw err;
  }
  const unchanged = repaired.changes.length === 0 || repaired.text === text;
  return {
    text: unchanged ? text : repaired.text,
    changes: unchanged ? [] : repaired.changes,
    diagnostic: diagnoseConfig(unchanged ? text : repaired.text),
  };
});
