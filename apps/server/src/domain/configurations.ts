import { CONFLICT_MESSAGE } from '@synchro/contracts';
import { ConfigXmlError, parseConfig, type ConfigDocument } from '@synchro/config-xml';
import { exactText, storedText } from '../db/text-column.ts';
import type { Queryable } from '../db/types.ts';
import { AppError } from '../http/errors.ts';
import type { VersionRetention } from '../config/env.ts';
import { pruneVersions } from './config-retention.ts';

/**
 * The stored ConfigConnecteur of each installation: the current text and its version
 * (`configurations`), every version ever written (`configuration_versions`), and the one way to
 * write a new version (row lock, compare-and-swap on the version, history).
 */

export interface StoredConfiguration {
  text: string;
  version: number;
}

export type ConfigurationAuthor = 'admin' | 'user' | 'repair' | 'connector';

/** Stored when an installation is created without a configuration file. */
export const MINIMAL_CONFIGURATION =
  '<?xml version="1.0" encoding="UTF-8"?>\r\n<Connexion>\r\n</Connexion>\r\n';

/** 422 answer when the stored document cannot be parsed: the Diagnostic screen can repair it. */
export function unreadableConfiguration(err: ConfigXmlError): AppError {
  return new AppError(
    422,
    `La configuration enregistrée est illisible (${err.message}). Ouvrez l'écran Diagnostic pour la vérifier et la réparer.`,
    'unreadable-configuration',
  );
}

/** 409: the version a client edited is no longer the one its change would replace. */
export const conflict = () => new AppError(409, CONFLICT_MESSAGE, 'conflict');

/** The parsed document of a stored text, or the 422 above. */
export function parseStored(text: string): ConfigDocument {
  try {
    return parseConfig(text);
  } catch (err) {
    if (err instanceof ConfigXmlError) throw unreadableConfiguration(err);
    throw err;
  }
}

/**
 * Checks that a text can be stored as an installation's ConfigConnecteur (well-formed, safe,
 * root <Connexion>, within the size limit); returns the French reason when it cannot, else null.
 */
export function validateConfigText(text: string): string | null {
  try {
    parseConfig(text);
    return null;
  } catch (err) {
    if (err instanceof ConfigXmlError) return err.message;
    throw err;
  }
}

export async function getConfigurationVersion(db: Queryable, installationId: string): Promise<number> {
  const [row] = await db.query<{ version: number }>(
    'SELECT version FROM configurations WHERE installation_id = $1',
    [installationId],
  );
  return row?.version ?? 0;
}

export async function getConfiguration(db: Queryable, installationId: string): Promise<StoredConfiguration> {
  const [row] = await db.query<StoredConfiguration>(
    `SELECT ${exactText('text', 'text')}, version FROM configurations WHERE installation_id = $1`,
    [installationId],
  );
  return row
    ? { text: storedText(row.text), version: row.version }
    : { text: MINIMAL_CONFIGURATION, version: 0 };
}

/**
 * The stored version, and its text unless that version is one of `known` (a conditional GET: the
 * text is not even read from the database then).
 */
export async function getConfigurationUnlessKnown(
  db: Queryable,
  installationId: string,
  known: readonly number[],
): Promise<{ version: number; text: string | null }> {
  const [row] = await db.query<{ version: number; text: string | null }>(
    `SELECT version, ${exactText('CASE WHEN version = ANY($2::int[]) THEN NULL ELSE text END', 'text')}
     FROM configurations WHERE installation_id = $1`,
    [installationId, known],
  );
  if (row) return { version: row.version, text: storedText(row.text) };
  return { version: 0, text: known.includes(0) ? null : MINIMAL_CONFIGURATION };
}

/** The text of one version from the history, or null when the history does not have it. */
export async function getVersionText(
  db: Queryable,
  installationId: string,
  version: number,
): Promise<string | null> {
  const [row] = await db.query<{ text: string }>(
    `SELECT ${exactText('text', 'text')} FROM configuration_versions WHERE installation_id = $1 AND version = $2`,
    [installationId, version],
  );
  return row ? storedText(row.text) : null;
}

/** Version 1 of a new installation, in `configurations` and in the history (author 'admin'). */
export async function insertFirstVersion(tx: Queryable, installationId: string, text: string): Promise<void> {
  await tx.query('INSERT INTO configurations (installation_id, text, version) VALUES ($1, $2, 1)', [
    installationId,
    text,
  ]);
  await tx.query(
    `INSERT INTO configuration_versions (installation_id, version, text, author) VALUES ($1, 1, $2, 'admin')`,
    [installationId, text],
  );
}

/** The newest configuration row, locked until the end of the transaction. */
export async function lockConfiguration(tx: Queryable, installationId: string): Promise<StoredConfiguration> {
  const [row] = await tx.query<StoredConfiguration>(
    `SELECT ${exactText('text', 'text')}, version FROM configurations WHERE installation_id = $1 FOR UPDATE`,
    [installationId],
  );
  if (!row) {
    throw new AppError(404, 'Aucune configuration enregistrée pour cette installation.', 'NOT_FOUND');
  }
  return { text: storedText(row.text), version: row.version };
}

/**
 * History is complete: the version about to be replaced is in configuration_versions (created
 * installations store version 1 there; a text written by other means is backfilled here).
 */
async function ensureInHistory(
  tx: Queryable,
  installationId: string,
  current: StoredConfiguration,
): Promise<void> {
  await tx.query(
    `INSERT INTO configuration_versions (installation_id, version, text, author, section)
     VALUES ($1, $2, $3, 'admin', NULL)
     ON CONFLICT (installation_id, version) DO NOTHING`,
    [installationId, current.version, current.text],
  );
}

/**
 * Writes `text` as the version after `current` (compare-and-swap: 409 when the stored version
 * moved) and appends it to the history, then drops the versions the retention no longer keeps
 * (config-retention.ts). `current` comes from lockConfiguration in the same transaction.
 */
export async function writeNewVersion(
  tx: Queryable,
  installationId: string,
  current: StoredConfiguration,
  text: string,
  author: Exclude<ConfigurationAuthor, 'admin'>,
  section: string | null,
  retention: VersionRetention,
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
  await pruneVersions(tx, installationId, next, retention);
  return next;
}
