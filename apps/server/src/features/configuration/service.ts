import type { VersionRetention } from '../../config/env.ts';
import {
  CONFIG_SECTIONS,
  type ConfigSectionSave,
  type TSaveableSectionKey,
  type TSaveResponse,
  type TSectionPayloadNormal,
} from '@synchro/contracts';
import { ConfigXmlError, editScope, type ConfigDocument, type EditKind } from '@synchro/config-xml';
import type { Db } from '../../db/types.ts';
import { recordAudit } from '../../domain/audit.ts';
import {
  conflict,
  getVersionText,
  lockConfiguration,
  parseStored,
  unreadableConfiguration,
  writeNewVersion,
} from '../../domain/configurations.ts';
import type { Installation } from '../../domain/installations.ts';
import { AppError } from '../../http/errors.ts';
import { invalidPayload } from '../../http/validate.ts';
import { SECTION_SAVERS } from './sections.ts';

/**
 * The version a client edited, from `If-Match: "<version>"` (also `W/"<v>"` or a bare number);
 * null when absent or `*` (the legacy API: apply to the newest version).
 */
export function parseIfMatch(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '' || value.trim() === '*') return null;
  const m = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(value);
  if (!m)
    throw new AppError(400, 'En-tête If-Match invalide : version attendue, par exemple "12".', 'VALIDATION');
  return Number(m[1]);
}

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
  const { edit: kind, success } = sectionSave(req.key);
  const index = saver.index?.(payload);
  return db.transaction(async (tx) => {
    const current = await lockConfiguration(tx, installation.id);
    const doc = parseStored(current.text);
    if (req.ifMatch !== null && req.ifMatch !== current.version) {
      const base = await getVersionText(tx, installation.id, req.ifMatch);
      if (base === null || scopeOf(base, kind, index) !== scopeOf(doc, kind, index)) throw conflict();
    }
    let text: string;
    try {
      text = saver.edit(doc, payload);
    } catch (err) {
      if (err instanceof ConfigXmlError) throw editFailure(err);
      throw err;
    }
    const version =
      text === current.text
        ? current.version
        : await writeNewVersion(tx, installation.id, current, text, 'user', kind, req.retention);
    await saver.alsoWrite?.(tx, installation, payload);
    await recordAudit(tx, {
      installationId: installation.id,
      syncId: installation.syncId,
      actor: 'user',
      action: 'config.save',
      address: req.address,
      details: {
        section: kind,
        ...(index !== undefined ? { index } : {}),
        fromVersion: current.version,
        version,
        ifMatch: req.ifMatch,
      },
    });
    return { message: success, version };
  });
}

/** What the edit owns in a version; null when that version cannot be read (then: conflict). */
function scopeOf(input: string | ConfigDocument, kind: EditKind, index?: number): string | null {
  try {
    return editScope(input, kind, index);
  } catch (err) {
    if (err instanceof ConfigXmlError) return null;
    throw err;
  }
}
