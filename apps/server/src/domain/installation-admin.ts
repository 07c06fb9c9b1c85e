import type { TAuditAction } from '@synchro/contracts';
import type { Db } from '../db/types.ts';
import { AppError } from '../http/errors.ts';
import { hashClientId, hashConnectorToken, randomToken } from '../security/secrets.ts';
import { recordAudit } from './audit.ts';
import { insertFirstVersion, MINIMAL_CONFIGURATION } from './configurations.ts';
import {
  assertValidSyncId,
  findInstallationBySyncId,
  INSTALLATION_COLUMNS,
  requireInstallation,
  type Installation,
} from './installations.ts';
import { deleteInstallationSessions } from './sessions.ts';

/**
 * The licence changes of the admin command (and the demo's creation): each in one transaction,
 * audited (actor 'admin'); a change that takes away access ends the installation's sessions.
 */

export interface NewInstallation {
  syncId: string;
  clientId: string;
  configText?: string;
  premium?: boolean;
  options?: string;
  software?: string;
  expiresAt?: Date | null;
  /** A bench installation (docs/history.md, Seed); false by default. */
  bench?: boolean;
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
      `INSERT INTO installations
         (sync_id, client_id_hash, premium, options, software, expires_at, connector_token_hash, bench)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${INSTALLATION_COLUMNS}`,
      [
        input.syncId,
        clientIdHash,
        input.premium ?? false,
        input.options ?? '',
        input.software ?? '',
        input.expiresAt ?? null,
        hashConnectorToken(connectorToken),
        input.bench ?? false,
      ],
    );
    if (!installation) throw new Error('insert returned no row');
    const text = input.configText ?? MINIMAL_CONFIGURATION;
    await insertFirstVersion(tx, installation.id, text);
    await recordAudit(tx, {
      installationId: installation.id,
      syncId: installation.syncId,
      actor: 'admin',
      action: 'installation.create',
      details: {
        premium: installation.premium,
        options: installation.options,
        ...(installation.bench ? { bench: true } : {}),
      },
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
    action: TAuditAction;
    details?: Record<string, unknown>;
    /** 'admin' (the command) unless the server does it itself ('system': the demo's start). */
    actor?: 'admin' | 'system';
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
      actor: change.actor ?? 'admin',
      action: change.action,
      ...(change.details ? { details: change.details } : {}),
    });
  });
}

/** Replaces the client id; every open session of the installation ends. */
export async function setClientId(
  db: Db,
  syncId: string,
  clientId: string,
  by: { actor: 'admin' | 'system'; reason?: string } = { actor: 'admin' },
): Promise<void> {
  if (!clientId) throw new AppError(400, "L'ID Client est obligatoire.", 'INVALID_CLIENT_ID');
  const clientIdHash = await hashClientId(clientId);
  await updateInstallation(db, syncId, {
    set: 'client_id_hash = $2',
    params: [clientIdHash],
    endSessions: true,
    action: 'installation.set-client-id',
    actor: by.actor,
    ...(by.reason ? { details: { reason: by.reason } } : {}),
  });
}

/**
 * Replaces the connector token: only the new one's hash is stored, so the old token stops working
 * at the connector's next request (every request looks its hash up). Returns the new token.
 * `by`: who asked, for the audit (the admin command, or the server for its demo simulator).
 */
export async function rotateConnectorToken(
  db: Db,
  syncId: string,
  by: { actor: 'admin' | 'system'; reason?: string } = { actor: 'admin' },
): Promise<string> {
  const connectorToken = randomToken();
  await updateInstallation(db, syncId, {
    set: 'connector_token_hash = $2',
    params: [hashConnectorToken(connectorToken)],
    endSessions: false,
    action: 'installation.rotate-connector-token',
    actor: by.actor,
    ...(by.reason ? { details: { reason: by.reason } } : {}),
  });
  return connectorToken;
}

/** Suspends an installation: it can no longer sign in and its sessions end. */
export async function suspendInstallation(
  db: Db,
  syncId: string,
  by: { actor: 'admin' | 'system'; reason?: string } = { actor: 'admin' },
): Promise<void> {
  await updateInstallation(db, syncId, {
    set: 'suspended = true',
    endSessions: true,
    action: 'installation.suspend',
    actor: by.actor,
    ...(by.reason ? { details: { reason: by.reason } } : {}),
  });
}

/** Lets a suspended installation sign in again. */
export async function resumeInstallation(
  db: Db,
  syncId: string,
  by: { actor: 'admin' | 'system'; reason?: string } = { actor: 'admin' },
): Promise<void> {
  await updateInstallation(db, syncId, {
    set: 'suspended = false',
    endSessions: false,
    action: 'installation.resume',
    actor: by.actor,
    ...(by.reason ? { details: { reason: by.reason } } : {}),
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

/** The installation's own storage quota in bytes (domain/storage.ts), or null: the server's default. */
export async function setStorageQuota(db: Db, syncId: string, quotaBytes: number | null): Promise<void> {
  await updateInstallation(db, syncId, {
    set: 'storage_quota_bytes = $2',
    params: [quotaBytes],
    endSessions: false,
    action: 'installation.set-storage-quota',
    details: { quotaBytes },
  });
}
