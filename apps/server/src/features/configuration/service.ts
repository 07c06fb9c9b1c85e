import type { VersionRetention } from '../../config/env.ts';
import type { TSaveableSectionKey, TSaveResponse } from '@synchro/contracts';
import type { Db, Queryable } from '../../db/types.ts';
import { recordAudit } from '../../domain/audit.ts';
import {
  commitVersion,
  conflict,
  prepareVersion,
  scopeUnchangedSince,
  writeConfiguration,
} from '../../domain/configurations.ts';
import type { Installation } from '../../domain/installations.ts';
import { AppError } from '../../http/errors.ts';
import { parseStoredOffThread } from '../../domain/config-parse-task.ts';
import type { Offload } from '../../offload/pool.ts';
import { editSection, sectionSave, type SaveInput } from './edit-task.ts';
import { SECTION_SAVERS } from './sections.ts';

export interface SaveRequest<K extends TSaveableSectionKey> {
  key: K;
  installation: Installation;
  /** The version the client edited (If-Match), or null. */
  ifMatch: number | null;
  /**
   * The payload validated with the section's payload schema; or, for a save that takes a big body
   * (SectionSaver.bigBody), the body's bytes, read and checked with the edit in a worker thread.
   */
  input: SaveInput<K>;
  address: string;
  retention: VersionRetention;
  /** The worker threads: a big configuration is scanned there, never on the request thread. */
  offload: Offload;
}

/**
 * The one save of a configuration section, through writeConfiguration: outside any transaction,
 * read the newest configuration; when the client edited an older version, 409 if what this edit
 * owns changed since; apply the edit to the newest text and compute what it changes. Then in one
 * short transaction, the stored version still the one edited: write it as the next version
 * (author 'user', section = the edit kind), the section's other writes, audit. Answers the
 * registry's success message.
 */
export async function saveSection<K extends TSaveableSectionKey>(
  db: Db,
  req: SaveRequest<K>,
): Promise<TSaveResponse> {
  const { installation } = req;
  const saver = SECTION_SAVERS[req.key];
  const { edit: kind } = sectionSave(req.key);
  if ('body' in req.input && (!saver.bigBody || saver.index || saver.alsoWrite))
    throw new Error(`La sauvegarde ${req.key} ne prend pas de corps à lire hors du fil.`);
  const index = 'payload' in req.input ? saver.index?.(req.input.payload) : undefined;
  const audit = (
    tx: Queryable,
    details: Record<string, unknown>,
    outcome: 'success' | 'failure' = 'success',
  ) =>
    recordAudit(tx, {
      installationId: installation.id,
      syncId: installation.syncId,
      actor: 'user',
      action: 'config.save',
      address: req.address,
      outcome,
      details: { section: kind, ...(index !== undefined ? { index } : {}), ifMatch: req.ifMatch, ...details },
    });
  try {
    return await writeSave(db, req, audit);
  } catch (err) {
    // A save refused for a conflict tried to change something: the journal says so.
    if (err instanceof AppError && err.code === 'conflict')
      await audit(db, { refused: 'conflict' }, 'failure');
    throw err;
  }
}

async function writeSave<K extends TSaveableSectionKey>(
  db: Db,
  req: SaveRequest<K>,
  audit: (tx: Queryable, details: Record<string, unknown>) => Promise<void>,
): Promise<TSaveResponse> {
  const { installation, input } = req;
  const saver = SECTION_SAVERS[req.key];
  const { edit: kind, success } = sectionSave(req.key);
  const index = 'payload' in input ? saver.index?.(input.payload) : undefined;
  return writeConfiguration(db, installation.id, {
    prepare: async (current) => {
      const doc = await parseStoredOffThread(req.offload, current.text);
      if (
        req.ifMatch !== null &&
        req.ifMatch !== current.version &&
        !(await scopeUnchangedSince(db, installation.id, req.ifMatch, current, doc, kind, index))
      )
        throw conflict();
      // A big edit (a big section or body) runs in a worker thread, a small one here.
      const text = await editSection(req.offload, req.key, current.text, doc, input);
      if (text === current.text) return null;
      return prepareVersion(db, installation.id, current, text, 'user', {
        currentDoc: doc,
        offload: req.offload,
      });
    },
    commit: async (tx, prepared, current) => {
      const written = prepared
        ? await commitVersion(tx, installation.id, prepared, kind, req.retention, { address: req.address })
        : null;
      const version = written?.version ?? current.version;
      if ('payload' in input) await saver.alsoWrite?.(tx, installation, input.payload);
      await audit(tx, { fromVersion: current.version, version, summary: written?.summary ?? [] });
      return { message: success, version };
    },
  });
}
