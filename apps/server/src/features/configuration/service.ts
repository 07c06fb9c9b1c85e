import { CONFLICT_MESSAGE, type TPayloadIssue, type TSaveResponse } from '@synchro/contracts';
import {
  ConfigXmlError,
  editScope,
  parseConfig,
  type ConfigDocument,
  type EditKind,
} from '@synchro/config-xml';
import { recordAudit } from '../../audit/audit.ts';
import type { Db, Queryable } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import type { Installation } from '../installations/service.ts';

/** 422 answer when the stored document cannot be parsed: the Diagnostic screen can repair it. */
export function unreadableConfiguration(err: ConfigXmlError): AppError {
  return new AppError(
    422,
    `La configuration enregistrée est illisible (${err.message}). Ouvrez l'écran Diagnostic pour la vérifier et la réparer.`,
    'unreadable-configuration',
  );
}

export const conflict = () => new AppError(409, CONFLICT_MESSAGE, 'conflict');

export function invalidPayload(issues: readonly TPayloadIssue[]): AppError {
  const details = issues.map((i) => (i.path ? `${i.path} : ${i.message}` : i.message));
  return new AppError(400, `Requête invalide. ${details.join(' ; ')}`, 'VALIDATION');
}

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

export interface LockedConfiguration {
  text: string;
  version: number;
}

/** The newest configuration row, locked until the end of the transaction. */
export async function lockConfiguration(tx: Queryable, installationId: string): Promise<LockedConfiguration> {
  const [row] = await tx.query<LockedConfiguration>(
    'SELECT text, version FROM configurations WHERE installation_id = $1 FOR UPDATE',
    [installationId],
  );
  if (!row) {
    throw new AppError(404, 'Aucune configuration enregistrée pour cette installation.', 'NOT_FOUND');
  }
  return row;
}

/**
 * History is complete: the version about to be replaced is in configuration_versions (created
 * installations store version 1 there; a text written by other means is backfilled here).
 */
export async function ensureInHistory(
  tx: Queryable,
  installationId: string,
  current: LockedConfiguration,
): Promise<void> {
  await tx.query(
    `INSERT INTO configuration_versions (installation_id, version, text, author, section)
     VALUES ($1, $2, $3, 'admin', NULL)
     ON CONFLICT (installation_id, version) DO NOTHING`,
    [installationId, current.version, current.text],
  );
}

/** Writes `text` as the version after `current` (compare-and-swap) and appends it to history. */
export async function writeNewVersion(
  tx: Queryable,
  installationId: string,
  current: LockedConfiguration,
  text: string,
  author: 'user' | 'repair',
  section: string | null,
): Promise<number> {
  await ensureInHistory(tx, installationId, current);
  const next = current.version + 1;
  const updated = await tx.query(
    `UPDATE configurations SET text = $3, version = $4, updated_at = now()
     WHERE installation_id = $1 AND version = $2 RETURNING version`,
    [installationId, current.version, text, next],
  );
  if (updated.length !== 1) throw conflict();
  await tx.query(
    `INSERT INTO configuration_versions (installation_id, version, text, author, section)
     VALUES ($1, $2, $3, $4, $5)`,
    [installationId, next, text, author, section],
  );
  return next;
}

function parseStored(text: string): ConfigDocument {
  try {
    return parseConfig(text);
  } catch (err) {
    if (err instanceof ConfigXmlError) throw unreadableConfiguration(err);
    throw err;
  }
}

/** An edit's ConfigXmlError as the answer the administrator sees. */
function editFailure(err: ConfigXmlError): AppError {
  switch (err.code) {
    case 'invalid-payload':
      return invalidPayload(err.issues ?? [{ path: '', message: err.message }]);
    case 'unknown-reference':
      return new AppError(400, err.message, 'unknown-reference');
    case 'terminal-index':
      return new AppError(400, 'Impossible de déterminer le terminal à mettre à jour', 'terminal-index');
    default:
      return unreadableConfiguration(err);
  }
}

export interface SaveRequest {
  installation: Installation;
  kind: EditKind;
  /** The terminal's index for 'terminal'. */
  index?: number;
  /** The version the client edited (If-Match), or null. */
  ifMatch: number | null;
  /** The config-xml edit: newest document → new text (validates the payload). */
  edit: (doc: ConfigDocument) => string;
  /** French success message (spec §8). */
  message: string;
  address: string;
  /** Extra writes in the same transaction (the installation's time zone). */
  alsoWrite?: (tx: Queryable) => Promise<void>;
}

/**
 * The one save of a configuration section. In one transaction: lock the newest configuration;
 * when the client edited an older version, 409 if what this edit owns changed since; apply the
 * edit to the newest text; write it as the next version (author 'user', section = kind), audit.
 */
export async function saveSection(db: Db, req: SaveRequest): Promise<TSaveResponse> {
  return db.transaction(async (tx) => {
    const { installation, kind } = req;
    const current = await lockConfiguration(tx, installation.id);
    const doc = parseStored(current.text);
    if (req.ifMatch !== null && req.ifMatch !== current.version) {
      const [base] = await tx.query<{ text: string }>(
        'SELECT text FROM configuration_versions WHERE installation_id = $1 AND version = $2',
        [installation.id, req.ifMatch],
      );
      if (!base || scopeOf(base.text, kind, req.index) !== scopeOf(doc, kind, req.index)) throw conflict();
    }
    let text: string;
    try {
      text = req.edit(doc);
    } catch (err) {
      if (err instanceof ConfigXmlError) throw editFailure(err);
      throw err;
    }
    const version =
      text === current.text
        ? current.version
        : await writeNewVersion(tx, installation.id, current, text, 'user', kind);
    if (req.alsoWrite) await req.alsoWrite(tx);
    await recordAudit(tx, {
      installationId: installation.id,
      syncId: installation.syncId,
      actor: 'user',
      action: 'config.save',
      address: req.address,
      details: {
        section: kind,
        ...(req.index !== undefined ? { index: req.index } : {}),
        fromVersion: current.version,
        version,
        ifMatch: req.ifMatch,
      },
    });
    return { message: req.message, version };
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
