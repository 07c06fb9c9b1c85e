import type { TConnectorConfigPatch } from '@synchro/contracts';
import {
  ConfigXmlError,
  editConnectorParts,
  transferLayout,
  type ConfigDocument,
  type TransferredLayout,
} from '@synchro/config-xml';
import { parseStored } from '../../domain/configurations.ts';
import { lastSyncOf, reportsNewSync } from '../../domain/mail-rules.ts';
import { defineTask } from '../../offload/task.ts';
import { patchFailure } from './configuration-errors.ts';

/** A connector patch applied to the stored text, with what the rest of the write needs of it. */
export interface ConnectorEdit {
  text: string;
  /** The last sync the stored text held (emails: a new one is reported). */
  beforeLastSync: string | null;
  /** The new text parsed, when a new sync is reported (its emails read it). */
  after: ConfigDocument | null;
}

/** The connector's parts spliced into the stored text (parse, then edit). */
export function editConnectorText(text: string, patch: TConnectorConfigPatch): ConnectorEdit {
  const before = parseStored(text);
  let edited: string;
  try {
    edited = editConnectorParts(before, patch);
  } catch (err) {
    if (err instanceof ConfigXmlError) throw patchFailure(err);
    throw err;
  }
  const beforeLastSync = lastSyncOf(before);
  return {
    text: edited,
    beforeLastSync,
    after: reportsNewSync(patch, beforeLastSync) ? parseStored(edited) : null,
  };
}

/**
 * The same in a worker thread, for a big configuration (configuration.ts): a 50 MB document is
 * never scanned on the request thread; the new text's element index comes back moved, not copied.
 */
export const connectorEditTask = defineTask(
  'connector.config-edit',
  ({ text, patch }: { text: string; patch: TConnectorConfigPatch }) => {
    const edit = editConnectorText(text, patch);
    return {
      text: edit.text,
      beforeLastSync: edit.beforeLastSync,
      after: edit.after ? transferLayout(edit.after).value : null,
    };
  },
  (out: { after: TransferredLayout | null }) =>
    out.after ? Object.values(out.after.arrays).map((a) => a.buffer as ArrayBuffer) : [],
);
