import { SYNC_ID_MESSAGE, SYNC_ID_PATTERN } from '@synchro/contracts';
import { recordAudit } from '../../audit/audit.ts';
import type { Db, Queryable } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { hashClientId, hashConnectorToken, randomToken } from '../../security/secrets.ts';
import { deleteInstallationSessions } from '../auth/sessions.ts';

export interface Installation {
  id: string;
  syncId: string;
  clientIdHash: string;
  premium: boolean;
  options: string;
  software: string;
  suspended: boolean;
  expiresAt: Date | null;
  timeZone: string;
  timeZoneLabel: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface StoredConfiguration {
  text: string;
  version: number;
}

/** Stored when an installation is created without a configuration file. */
export const MINIMAL_CONFIGURATION =
  '<?xml version="1.0" encoding="UTF-8"?>\r\n<Connexion>\r\n</Connexion>\r\n';

/** The columns of an Installation, optionally qualified by a table alias (for joins). */
export function installationColumns(alias = ''): string {
  const p = alias ? `${alias}.` : '';
  return `${p}id, ${p}sync_id AS "syncId", ${p}client_id_hash AS "clientIdHash", ${p}premium, ${p}options,
  ${p}software, ${p}suspended, ${p}expires_at AS "expiresAt", ${p}time_zone AS "timeZone",
  ${p}time_zone_label AS "timeZoneLabel", ${p}created_at AS "createdAt", ${p}updated_at AS "updatedAt"`;
}

const COLUMNS = installationColumns();

export function assertValidSyncId(syncId: string): void {
  if (!SYNC_ID_PATTERN.test(syncId)) throw new AppError(400, SYNC_ID_MESSAGE, 'INVALID_SYNC_ID');
  // The login form accepts at most 64 characters (ZLoginRequest).
  if (syncId.length > 64) {
    throw new AppError(400, "L'ID de synchronisation ne doit pas dépasser 64 caractères.", 'INVALID_SYNC_ID');
  }
}

export function isExpired(installation: Pick<Installation, 'expiresAt'>, now: Date): boolean {
  return installation.expiresAt !== null && installation.expiresAt.getTime() <= now.getTime();
}

export async function findInstallationBySyncId(db: Queryable, syncId: string): Promise<Installation | null> {
  const rows = await db.query<Installation>(`SELECT ${COLUMNS} FROM installations WHERE sync_id = $1`, [
    syncId,
  ]);
  return rows[0] ?? null;
}

export async function findInstallationById(db: Queryable, id: string): Promise<Installation | null> {
  const rows = await db.query<Installation>(`SELECT ${COLUMNS} FROM installations WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

async function requireInstallation(db: Queryable, syncId: string): Promise<Installation> {
  const found = await findInstallationBySyncId(db, syncId);
  if (!found)
    throw new AppError(404, `Aucune installation avec l'ID de synchronisation ${syncId}.`, 'NOT_FOUND');
  return found;
}

export interface NewInstallation {
  syncId: string;
  clientId: string;
  configText?: string;
  premium?: boolean;
  options?: string;
  software?: string;
  expiresAt?: Date | null;
}

/** Creates an installation with its first configuration version; returns its connector token. */
export async function createInstallation(
  db: Db,
  input: NewInstallation,
): Promise<{ installation: Installation; connectorToken: string }> {
  assertValidSyncId(input.syncId);
  if (!input.clientId) throw new AppError(400, "L'ID Client est obligatoire.", 'INVALID_CLIENT_ID');
  const clientIdHash = await hashClientId(input.clientId);
  const connectorToken = randomToken();
  return db.transaction(async (tx) => {
    if (await findInstallationBySyncId(tx, input.syncId)) {
      throw new AppError(
        409,
        `Une installation avec l'ID de synchronisation ${input.syncId} existe déjà.`,
        'DUPLICATE',
      );
    }
    const [installation] = await tx.query<Installation>(
      `INSERT INTO installations (sync_id, client_id_hash, premium, options, software, expires_at, connector_token_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [
        input.syncId,
        clientIdHash,
        input.premium ?? false,
        input.options ?? '',
        input.software ?? '',
        input.expiresAt ?? null,
        hashConnectorToken(connectorToken),
      ],
    );
    if (!installation) throw new Error('insert returned no row');
    const text = input.configText ?? MINIMAL_CONFIGURATION;
    await tx.query('INSERT INTO configurations (installation_id, text, version) VALUES ($1, $2, 1)', [
      installation.id,
      text,
    ]);
    await tx.query(
      `INSERT INTO configuration_versions (installation_id, version, text, author) VALUES ($1, 1, $2, 'admin')`,
      [installation.id, text],
    );
    await recordAudit(tx, {
      installationId: installation.id,
      syncId: installation.syncId,
      actor: 'admin',
      action: 'installation.create',
      details: { premium: installation.premium, options: installation.options },
    });
    return { installation, connectorToken };
  });
}

/**
 * One admin change to an installation, in a transaction: `UPDATE installations SET <set>` (the
 * installation's id is $1, `params` follow from $2), its sessions ended when `endSessions`, audited
 * as `action`.
 */
async function updateInstallation(
  db: Db,
  syncId: string,
  change: {
    set: string;
    params?: unknown[];
    endSessions: boolean;
    action: string;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    const installation = await requireInstallation(tx, syncId);
    await tx.query(`UPDATE installations SET ${change.set}, updated_at = now() WHERE id = $1`, [
      installation.id,
      ...(change.params ?? []),
    ]);
    if (change.endSessions) await deleteInstallationSessions(tx, installation.id);
    await recordAudit(tx, {
      installationId: installation.id,
      syncId,
      actor: 'admin',
      action: change.action,
      ...(change.details ? { details: change.details } : {}),
    });
  });
}

/** Replaces the client id; every open session of the installation ends. */
export async function setClientId(db: Db, syncId: string, clientId: string): Promise<void> {
  if (!clientId) throw new AppError(400, "L'ID Client est obligatoire.", 'INVALID_CLIENT_ID');
  const clientIdHash = await hashClientId(clientId);
  await updateInstallation(db, syncId, {
    set: 'client_id_hash = $2',
    params: [clientIdHash],
    endSessions: true,
    action: 'installation.set-client-id',
  });
}

/** Suspends an installation: it can no longer sign in and its sessions end. */
export async function suspendInstallation(db: Db, syncId: string): Promise<void> {
  await updateInstallation(db, syncId, {
    set: 'suspended = true',
    endSessions: true,
    action: 'installation.suspend',
  });
}

/** Lets a suspended installation sign in again. */
export async function resumeInstallation(db: Db, syncId: string): Promise<void> {
  await updateInstallation(db, syncId, {
    set: 'suspended = false',
    endSessions: false,
    action: 'installation.resume',
  });
}

/** Sets (or removes, with null) the licence expiry; an expiry in the past ends the sessions. */
export async function setExpiry(db: Db, syncId: string, expiresAt: Date | null): Promise<void> {
  await updateInstallation(db, syncId, {
    set: 'expires_at = $2',
    params: [expiresAt],
    endSessions: expiresAt !== null && expiresAt.getTime() <= Date.now(),
    action: 'installation.set-expiry',
    details: { expiresAt: expiresAt?.toISOString() ?? null },
  });
}

export async function listInstallations(db: Queryable): Promise<Installation[]> {
  return db.query<Installation>(`SELECT ${COLUMNS} FROM installations ORDER BY sync_id`);
}

export async function countInstallations(db: Queryable): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM installations');
  return row?.n ?? 0;
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
    'SELECT text, version FROM configurations WHERE installation_id = $1',
    [installationId],
  );
  return row ?? { text: MINIMAL_CONFIGURATION, version: 0 };
}
