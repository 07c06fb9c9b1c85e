import { CONFLICT_MESSAGE, type TEditKind, type THistorySection } from '@synchro/contracts';
import {
  ConfigXmlError,
  editScope,
  generationOf,
  parseConfig,
  scopeGenerations,
  type ConfigDocument,
  type ScopeGenerations,
} from '@synchro/config-xml';
import { exactText } from '../db/text-column.ts';
import {
  attachConfigurationText,
  ConfigurationTextGone,
  HAS_TEXT,
  TEXT_COLUMNS,
  textOfRow,
  writeConfigurationText,
  writtenApartText,
} from './configuration-texts.ts';
import type { Db, Queryable } from '../db/types.ts';
import { AppError } from '../http/errors.ts';
import type { VersionRetention } from '../config/env.ts';
import { pruneVersions } from './config-retention.ts';
import { OFFLOAD_MIN_BYTES, type Offload } from '../offload/pool.ts';
import { parseOrNull, versionChanges, versionChangesTask, type VersionChanges } from './version-changes.ts';
import { keepHistoryReferences } from './sync-data-history.ts';

/**
 * The stored ConfigConnecteur of each installation: the current text and its version
 * (`configurations`), every version ever written (`configuration_versions`), and the one way to
 * write a new version (row lock, compare-and-swap on the version, history).
 */

export interface StoredConfiguration {
  text: string;
  version: number;
  /** Where the text is stored when written apart (configuration-texts.ts), else null or absent. */
  textId?: string | null;
}

/** Times a read starts again when the text it was reading was replaced and swept meanwhile. */
const READ_ATTEMPTS = 3;

/** `read` again while it meets a text deleted under it (ConfigurationTextGone). */
async function readingAgainWhenGone<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await read();
    } catch (err) {
      if (!(err instanceof ConfigurationTextGone) || attempt === READ_ATTEMPTS) throw err;
    }
  }
}

interface TextRow {
  text: string | null;
  textId: string | null;
}

export type ConfigurationAuthor = 'admin' | 'user' | 'repair' | 'connector' | 'restore';

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
  return readingAgainWhenGone(async () => {
    const [row] = await db.query<TextRow & { version: number }>(
      `SELECT ${TEXT_COLUMNS}, version FROM configurations WHERE installation_id = $1`,
      [installationId],
    );
    return row
      ? { text: (await textOfRow(db, row)) as string, version: row.version, textId: row.textId }
      : { text: MINIMAL_CONFIGURATION, version: 0 };
  });
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
  return readingAgainWhenGone(async () => {
    const [row] = await db.query<TextRow & { version: number }>(
      `SELECT version, ${exactText('CASE WHEN version = ANY($2::int[]) THEN NULL ELSE text END', 'text')},
         CASE WHEN version = ANY($2::int[]) THEN NULL ELSE text_id::text END AS "textId"
       FROM configurations WHERE installation_id = $1`,
      [installationId, known],
    );
    if (row) return { version: row.version, text: await textOfRow(db, row) };
    return { version: 0, text: known.includes(0) ? null : MINIMAL_CONFIGURATION };
  });
}

/** The text of one version from the history, or null when the history does not have it (or pruned it). */
export async function getVersionText(
  db: Queryable,
  installationId: string,
  version: number,
): Promise<string | null> {
  return readingAgainWhenGone(async () => {
    const [row] = await db.query<TextRow>(
      `SELECT ${TEXT_COLUMNS} FROM configuration_versions WHERE installation_id = $1 AND version = $2`,
      [installationId, version],
    );
    return row ? textOfRow(db, row) : null;
  });
}

/** Version 1 of a new installation, in `configurations` and in the history (author 'admin'). */
export async function insertFirstVersion(tx: Queryable, installationId: string, text: string): Promise<void> {
  await tx.query('INSERT INTO configurations (installation_id, text, version) VALUES ($1, $2, 1)', [
    installationId,
    text,
  ]);
  const doc = parseOrNull(text);
  const scopes = doc ? scopeGenerations(null, null, doc, 1) : null;
  await tx.query(
    `INSERT INTO configuration_versions (installation_id, version, text, author, scopes) VALUES ($1, 1, $2, 'admin', $3)`,
    [installationId, text, scopes ? JSON.stringify(scopes) : null],
  );
}

const jsonOf = <T>(v: unknown): T | null =>
  typeof v === 'string' ? (JSON.parse(v) as T) : ((v as T) ?? null);

/** The newest configuration row, locked until the end of the transaction. */
export async function lockConfiguration(tx: Queryable, installationId: string): Promise<StoredConfiguration> {
  const [row] = await tx.query<TextRow & { version: number }>(
    `SELECT ${TEXT_COLUMNS}, version FROM configurations WHERE installation_id = $1 FOR UPDATE`,
    [installationId],
  );
  if (!row) {
    throw new AppError(404, 'Aucune configuration enregistrée pour cette installation.', 'NOT_FOUND');
  }
  return { text: (await textOfRow(tx, row)) as string, version: row.version, textId: row.textId };
}

interface ReplacedRow {
  scopes: unknown;
  hasText: boolean;
}

/**
 * History is complete: the version about to be replaced is in configuration_versions (created
 * installations store version 1 there; a text written by other means is backfilled here). The
 * connector's versions are stored without their text (docs/config-history.md, Storage): when a
 * person's save, a repair or a restore replaces one, its text is kept then (the backup).
 */
async function ensureInHistory(
  tx: Queryable,
  installationId: string,
  current: StoredConfiguration,
  keepText: boolean,
): Promise<ScopeGenerations | null> {
  const [row] = await tx.query<ReplacedRow>(
    `SELECT scopes, ${HAS_TEXT} AS "hasText" FROM configuration_versions
     WHERE installation_id = $1 AND version = $2`,
    [installationId, current.version],
  );
  // A text written apart is shared with the history, not copied (the point is not to write it).
  const [text, textId] = current.textId ? [null, current.textId] : [current.text, null];
  if (!row) {
    await tx.query(
      `INSERT INTO configuration_versions (installation_id, version, text, text_id, author, section)
       VALUES ($1, $2, $3, $4, 'admin', NULL)`,
      [installationId, current.version, text, textId],
    );
    return null;
  }
  if (keepText && !row.hasText) {
    await tx.query(
      `UPDATE configuration_versions SET text = $3, text_id = $4 WHERE installation_id = $1 AND version = $2`,
      [installationId, current.version, text, textId],
    );
  }
  return jsonOf<ScopeGenerations>(row.scopes);
}

export interface NewVersionOptions {
  /** `current.text` parsed, when the caller has it (saves a parse). */
  currentDoc?: ConfigDocument;
  /** The worker threads: a big text's changes are computed there (version-changes.ts). */
  offload?: Offload;
  /** Address of the console session that wrote it (authors 'user' and 'restore'). */
  address?: string | null;
  /** The connector's write: the history's lines (its text is not kept). */
  connectorLines?: string[];
}

/** What a new version changed: for the history, the audit, and what follows a save. */
export interface NewVersion {
  version: number;
  /** The console sections it changed, in menu order. */
  sections: THistorySection[];
  /** One French line per change (« Planification : 2 plannings ajoutés »). */
  summary: string[];
}

/** A new version computed outside any transaction (prepareVersion), written by commitVersion. */
export interface PreparedVersion {
  /** The stored configuration it replaces. */
  current: StoredConfiguration;
  text: string;
  /** The text written apart (big texts: configuration-texts.ts), to attach; else null. */
  textId: string | null;
  author: Exclude<ConfigurationAuthor, 'admin'>;
  changes: VersionChanges;
}

/**
 * What writing `text` after `current` changes (scope generations, sections, summary): both texts
 * scanned, in a worker thread when either is big. Reads only, so that it runs before the
 * transaction that writes (writeConfiguration): the database is not held during the scans. The
 * scopes read here are those of `current.version`, which no write changes once it exists.
 */
export async function prepareVersion(
  db: Queryable,
  installationId: string,
  current: StoredConfiguration,
  text: string,
  author: Exclude<ConfigurationAuthor, 'admin'>,
  options: Pick<NewVersionOptions, 'currentDoc' | 'offload'> = {},
): Promise<PreparedVersion> {
  const [row] = await db.query<{ scopes: unknown }>(
    'SELECT scopes FROM configuration_versions WHERE installation_id = $1 AND version = $2',
    [installationId, current.version],
  );
  const previousScopes = row ? jsonOf<ScopeGenerations>(row.scopes) : null;
  const connector = author === 'connector';
  // Written before the transaction, a few hundred KB per statement: the commit only refers to it.
  const textId = writtenApartText(text) ? await writeConfigurationText(db, installationId, text) : null;
  // The connector writes only nodes no console scope holds (config-xml CONNECTOR_OWNED).
  if (connector && previousScopes) {
    return {
      current,
      text,
      textId,
      author,
      changes: { scopes: previousScopes, sections: [], summary: null, hadHistory: [] },
    };
  }
  const input = {
    beforeText: current.text,
    afterText: text,
    previousScopes,
    next: current.version + 1,
    connector,
  };
  // Either big text sends the work to a thread (a save that empties a big section leaves a small
  // text after a big one).
  const changes =
    options.offload && Math.max(text.length, current.text.length) >= OFFLOAD_MIN_BYTES
      ? await options.offload.run(versionChangesTask, input)
      : versionChanges({ ...input, before: options.currentDoc });
  return { current, text, textId, author, changes };
}

/**
 * Writes a prepared version as the one after its `current` (compare-and-swap: 409 when the stored
 * version moved) and appends it to the history with its scope generations (what each console
 * scope's last change was, for the conflict check of later saves) and its summary, then applies
 * the retention (config-retention.ts). Short: every scan was done by prepareVersion.
 */
export async function commitVersion(
  tx: Queryable,
  installationId: string,
  prepared: PreparedVersion,
  section: string | null,
  retention: VersionRetention,
  options: Pick<NewVersionOptions, 'address' | 'connectorLines'> = {},
): Promise<NewVersion> {
  const { current, text, textId, author, changes } = prepared;
  const connector = author === 'connector';
  if (textId !== null) await attachConfigurationText(tx, textId);
  const inline = textId === null ? text : null;
  await ensureInHistory(tx, installationId, current, !connector);
  const next = current.version + 1;
  const updated = await tx.query(
    `UPDATE configurations SET text = $3, text_id = $5, version = $4, updated_at = now()
     WHERE installation_id = $1 AND version = $2 RETURNING version`,
    [installationId, current.version, inline, next, textId],
  );
  if (updated.length !== 1) throw conflict();
  await keepHistoryReferences(tx, installationId, changes.hadHistory);
  const summary = changes.summary ?? options.connectorLines ?? [];
  await tx.query(
    `INSERT INTO configuration_versions (installation_id, version, text, text_id, author, section, scopes, summary, address)
     VALUES ($1, $2, $3, $9, $4, $5, $6, $7, $8)`,
    [
      installationId,
      next,
      connector ? null : inline,
      author,
      section,
      changes.scopes ? JSON.stringify(changes.scopes) : null,
      JSON.stringify({ sections: changes.sections, lines: summary }),
      options.address ?? null,
      connector ? null : textId,
    ],
  );
  await pruneVersions(tx, installationId, next, retention);
  return { version: next, sections: changes.sections, summary };
}

/**
 * prepareVersion and commitVersion in the caller's transaction (`current` from lockConfiguration
 * in it): for a write whose texts are small, or a caller that holds the lock anyway.
 */
export async function writeNewVersion(
  tx: Queryable,
  installationId: string,
  current: StoredConfiguration,
  text: string,
  author: Exclude<ConfigurationAuthor, 'admin'>,
  section: string | null,
  retention: VersionRetention,
  options: NewVersionOptions = {},
): Promise<NewVersion> {
  const prepared = await prepareVersion(tx, installationId, current, text, author, options);
  return commitVersion(tx, installationId, prepared, section, retention, options);
}

/** Times a write is prepared again when another write came in meanwhile, before 409. */
export const WRITE_ATTEMPTS = 3;

/** The newest configuration's version, its row locked until the end of the transaction (404: none). */
async function lockVersion(tx: Queryable, installationId: string): Promise<number> {
  const [row] = await tx.query<{ version: number }>(
    'SELECT version FROM configurations WHERE installation_id = $1 FOR UPDATE',
    [installationId],
  );
  if (!row) throw new AppError(404, 'Aucune configuration enregistrée pour cette installation.', 'NOT_FOUND');
  return row.version;
}

/**
 * The one way to write an installation's configuration without holding the database during the
 * long work (docs/server.md, « Partage équitable »): `prepare` reads the stored configuration and
 * computes outside any transaction (parses, edit, changes: in worker threads when big); `commit`
 * then runs in a short transaction, the configuration row locked and still at the version
 * `prepare` read. When another write came in between (another server process, the connector),
 * `prepare` runs again on the newer text, at most WRITE_ATTEMPTS times, then 409. On the embedded
 * database a transaction makes every installation's statements wait: a 50 MB edit inside it held
 * them all for its seconds.
 */
export async function writeConfiguration<P, T>(
  db: Db,
  installationId: string,
  steps: {
    prepare: (current: StoredConfiguration) => Promise<P>;
    commit: (tx: Queryable, prepared: P, current: StoredConfiguration) => Promise<T>;
  },
): Promise<T> {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt += 1) {
    const current = await getConfiguration(db, installationId);
    const prepared = await steps.prepare(current);
    // A text written apart by `prepare` and not attached (a write came in between, or the sweep
    // took it: ConfigurationTextGone) is left to the sweep (configuration-texts.ts).
    const done = await db
      .transaction(async (tx) => {
        if ((await lockVersion(tx, installationId)) !== current.version) return null;
        return { value: await steps.commit(tx, prepared, current) };
      })
      .catch((err: unknown) => {
        if (err instanceof ConfigurationTextGone) return null;
        throw err;
      });
    if (done) return done.value;
  }
  throw conflict();
}

/**
 * Whether what one edit owns (`kind`, `index` for a terminal) is the same in version `base` as in
 * the current version: by their scope generations when both have them (kept after the text is
 * pruned), else by the texts (versions written before the generations existed). False when
 * neither is known: the save is refused (409), never merged blindly.
 */
export async function scopeUnchangedSince(
  tx: Queryable,
  installationId: string,
  base: number,
  current: StoredConfiguration,
  currentDoc: ConfigDocument,
  kind: TEditKind,
  index?: number,
): Promise<boolean> {
  const rows = await tx.query<{ version: number; scopes: unknown }>(
    `SELECT version, scopes FROM configuration_versions WHERE installation_id = $1 AND version = ANY($2::int[])`,
    [installationId, [base, current.version]],
  );
  const scopesOf = (v: number) => jsonOf<ScopeGenerations>(rows.find((r) => r.version === v)?.scopes);
  const b = scopesOf(base);
  const c = scopesOf(current.version);
  if (b && c) {
    const gb = generationOf(b, kind, index);
    return gb !== undefined && gb === generationOf(c, kind, index);
  }
  const baseText = await getVersionText(tx, installationId, base);
  if (baseText === null) return false;
  const scope = (input: string | ConfigDocument) => {
    try {
      return editScope(input, kind, index);
    } catch (err) {
      if (err instanceof ConfigXmlError) return null;
      throw err;
    }
  };
  const was = scope(baseText);
  return was !== null && was === scope(currentDoc);
}
