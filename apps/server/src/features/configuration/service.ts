import type { VersionRetention } from '../../config/env.ts';
import {
  CONFIG_SECTIONS,
  type ConfigSectionSave,
  type TSaveableSectionKey,
  type TSaveResponse,
  type TSectionPayloadNormal,
} from '@synchro/contracts';
import { ConfigXmlError } from '@synchro/config-xml';
import type { Db, Queryable } from '../../db/types.ts';
import { recordAudit } from '../../domain/audit.ts';
import {
  conflict,
  lockConfiguration,
  scopeUnchangedSince,
  unreadableConfiguration,
  writeNewVersion,
} from '../../domain/configurations.ts';
import type { Installation } from '../../domain/installations.ts';
import { AppError } from '../../http/errors.ts';
import { invalidPayload } from '../../http/validate.ts';
import { parseStoredOffThread } from '../../domain/config-parse-task.ts';
import type { Offload } from '../../offload/pool.ts';
import { SECTION_SAVERS } from './sections.ts';

/** An edit's ConfigXmlError as the answer the administrator sees. */
function editFailure(err: ConfigXmlError): AppError {
  switch (err.code) {
    case 'invalid-payload':
      return invalidPayload(err.issues ?? [{ path: '', message: err.message }]);
    case 'unknown-reference':
      return new AppError(400, err.message, 'unknown-reference');
    case 'secret-destination':
      return new AppError(400, err.message, 'secret-destination');
    case 'terminal-index':
      return new AppError(400, 'Impossible de déterminer le terminal à mettre à jour', 'terminal-index');
    default:
      return unreadableConfiguration(err);
  }
}

/** The save of a section of the registry (every saveable key has one). */
export const sectionSave = (key: TSaveableSectionKey): ConfigSectionSave =>
  CONFIG_SECTIONS[key].save as ConfigSectionSave;

export interface SaveRequest<K extends TSaveableSectionKey> {
  key: K;
  installation: Installation;
  /** The version the client edited (If-Match), or null. */
  ifMatch: number | null;
  /** Validated with the section's payload schema. */
  payload: TSectionPayloadNormal<K>;
  address: string;
  retention: VersionRetention;
  /** The worker threads: a big configuration is scanned there, never on the request thread. */
  offload: Offload;
}

/**
 * The one save of a configuration section. In one transaction: lock the newest configuration;
 * when the client edited an older version, 409 if what this edit owns changed since; apply the
 * edit to the newest text; write it as the next version (author 'user', section = the edit kind),
 * the section's other writes, audit. Answers the registry's success message.
 */
export async function saveSection<K extends TSaveableSectionKey>(
  db: Db,
  req: SaveRequest<K>,
): Promise<TSaveResponse> {
  const { installation, payload } = req;
  const saver = SECTION_SAVERS[req.key];
  const { edit: kind } = sectionSave(req.key);
  const index = saver.index?.(payload);
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
    return await saveInTransaction(db, req, audit);
  } catch (err) {
    // A save refused for a conflict tried to change something: the journal says so.
    if (err instanceof AppError && err.code === 'conflict')
      await audit(db, { refused: 'conflict' }, 'failure');
    throw err;
  }
}

async function saveInTransaction<K extends TSaveableSectionKey>(
  db: Db,
  req: SaveRequest<K>,
  audit: (tx: Queryable, details: Record<string, unknown>) => Promise<void>,
): Promise<TSaveResponse> {
  const { installation, payload } = req;
  const saver = SECTION_SAVERS[req.key];
  const { edit: kind, success } = sectionSave(req.key);
  const index = saver.index?.(payload);
  return db.transaction(async (tx) => {
    const current = await lockConfiguration(tx, installation.id);
    const doc = await parseStoredOffThread(req.offload, current.text);
    if (
      req.ifMatch !== null &&
      req.ifMatch !== current.version &&
      !(await scopeUnchangedSince(tx, installation.id, req.ifMatch, current, doc, kind, index))
    )
      throw conflict();
    let text: string;
    try {
      text = saver.edit(doc, payload);
    } catch (err) {
      if (err instanceof ConfigXmlError) throw editFailure(err);
      throw err;
    }
    const written =
      text === current.text
        ? null
        : await writeNewVersion(tx, installation.id, current, text, 'user', kind, req.retention, {
            currentDoc: doc,
            address: req.address,
            offload: req.offload,
          });
    const version = written?.version ?? current.version;
    await saver.alsoWrite?.(tx, installation, payload);
    await audit(tx, { fromVersion: current.version, version, summary: written?.summary ?? [] });
    return { message: success, version };
  });
}
