import { createHash, randomBytes } from 'node:crypto';
import type { DriveEnv, DriveProviderName } from '../config/mail-env.ts';
import type { Db, Queryable } from '../db/types.ts';
import { AppError } from '../http/errors.ts';
import {
  authorizationUrl,
  exchangeCode,
  OAuthError,
  pkcePair,
  refreshAccessToken,
} from '../network/oauth-client.ts';
import { seal, unseal, type SealKey } from '../security/token-box.ts';
import { recordAudit } from './audit.ts';
import { retireGrant, type Revocation, type StoredGrant } from './drive-revocation.ts';

/**
 * The drive link of an installation (docs/mail.md, Drive): the authorisation code flow with PKCE
 * started and completed for the signed-in installation, the refresh token kept sealed in
 * `drive_links` (migration 011), and short-lived access tokens for the connector, refreshed from
 * it. No network call is made inside a transaction (the embedded database runs one at a time).
 */

export interface DriveSettings {
  /** The providers' OAuth clients (GOOGLE_DRIVE_*, ONEDRIVE_*); null when not configured. */
  clients: DriveEnv;
  /** PUBLIC_URL: the redirect address is `${publicUrl}/api/drive/callback`. */
  publicUrl: string;
  /** The key tokens are sealed with (derived from SESSION_SECRET). */
  key: SealKey;
  /** How long a revocation at the provider may take (drive-revocation.ts). */
  revocationTimeoutMs: number;
}

export const DRIVE_CALLBACK_PATH = '/api/drive/callback';
export const redirectUriOf = (publicUrl: string) => `${publicUrl}${DRIVE_CALLBACK_PATH}`;

/** An authorisation request is valid this long (the person logs in at the provider meanwhile). */
export const AUTHORIZATION_TTL_MS = 10 * 60_000;
/** A cached access token is given while it has at least this long to live. */
const ACCESS_MARGIN_MS = 5 * 60_000;

export const DRIVE_NOT_CONFIGURED = 'Connexion au Drive non configurée sur ce serveur';
export const NO_DRIVE_MESSAGE =
  'Aucun Drive n’est connecté pour cette installation : connectez-le dans la console (écran Complément, « Connecter »).';
export const REVOKED_MESSAGE =
  'La connexion au Drive a été révoquée ou a expiré : reconnectez-le dans la console (écran Complément, « Connecter »).';

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

function clientOf(settings: DriveSettings, provider: DriveProviderName) {
  const client = settings.clients[provider];
  if (!client)
    throw new AppError(
      409,
      `${DRIVE_NOT_CONFIGURED} (${provider === 'google' ? 'Google Drive' : 'OneDrive'}).`,
      'drive-not-configured',
    );
  return client;
}

export interface DriveLink {
  provider: DriveProviderName;
  account: string;
  state: 'connected' | 'revoked';
  connectedAt: Date;
}

export async function findDriveLink(db: Queryable, installationId: string): Promise<DriveLink | null> {
  const [row] = await db.query<DriveLink>(
    `SELECT provider, account, state, connected_at AS "connectedAt" FROM drive_links WHERE installation_id = $1`,
    [installationId],
  );
  return row ?? null;
}

/** « Connecter »: a new authorisation request; the address the browser goes to. */
export async function startAuthorization(
  db: Db,
  settings: DriveSettings,
  req: { installationId: string; sessionToken: string; provider: DriveProviderName; now: Date },
): Promise<string> {
  const client = clientOf(settings, req.provider);
  const state = randomBytes(32).toString('base64url');
  const { verifier, challenge } = pkcePair();
  await db.transaction(async (tx) => {
    await tx.query(`DELETE FROM drive_authorizations WHERE created_at < $1`, [
      new Date(req.now.getTime() - AUTHORIZATION_TTL_MS),
    ]);
    await tx.query(
      `INSERT INTO drive_authorizations (state_hash, installation_id, session_hash, provider, code_verifier, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        sha256(state),
        req.installationId,
        sha256(req.sessionToken),
        req.provider,
        seal(settings.key, verifier),
        req.now,
      ],
    );
  });
  return authorizationUrl(client, { redirectUri: redirectUriOf(settings.publicUrl), state, challenge });
}

/** Why a callback could not connect, for the screen (`/complement?drive=<code>`). */
export type CallbackFailure = 'invalid' | 'expired' | 'refused' | 'unavailable' | 'no-refresh-token';

export class DriveCallbackError extends Error {
  constructor(
    readonly failure: CallbackFailure,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The provider's redirect: the request is taken (single use), checked against the installation
 * and the session that started it and its age, the code exchanged with the verifier, and the
 * link stored, audited. A link it replaces has its grant withdrawn at its provider afterwards
 * (drive-revocation.ts): `previous` says what came of it (null: there was none).
 */
export async function completeAuthorization(
  db: Db,
  settings: DriveSettings,
  req: {
    installationId: string;
    syncId: string;
    sessionToken: string;
    state: string;
    code: string;
    now: Date;
    address: string;
  },
): Promise<{ link: DriveLink; previous: Revocation | null }> {
  const [pending] = await db.query<{
    installationId: string;
    sessionHash: string;
    provider: DriveProviderName;
    verifier: Uint8Array;
    createdAt: Date;
  }>(
    `DELETE FROM drive_authorizations WHERE state_hash = $1
     RETURNING installation_id AS "installationId", session_hash AS "sessionHash", provider,
               code_verifier AS verifier, created_at AS "createdAt"`,
    [sha256(req.state)],
  );
  if (
    !pending ||
    pending.installationId !== req.installationId ||
    pending.sessionHash !== sha256(req.sessionToken)
  )
    throw new DriveCallbackError('invalid', 'Demande de connexion au Drive inconnue ou déjà utilisée.');
  if (req.now.getTime() - pending.createdAt.getTime() > AUTHORIZATION_TTL_MS)
    throw new DriveCallbackError('expired', 'Demande de connexion au Drive expirée : recommencez.');
  const verifier = unseal(settings.key, pending.verifier);
  if (verifier === null)
    throw new DriveCallbackError('invalid', 'Demande de connexion au Drive illisible : recommencez.');
  const client = clientOf(settings, pending.provider);
  let tokens;
  try {
    tokens = await exchangeCode(client, {
      code: req.code,
      verifier,
      redirectUri: redirectUriOf(settings.publicUrl),
    });
  } catch (err) {
    if (!(err instanceof OAuthError)) throw err;
    throw new DriveCallbackError(err.kind === 'unavailable' ? 'unavailable' : 'refused', err.message);
  }
  if (!tokens.refreshToken)
    throw new DriveCallbackError(
      'no-refresh-token',
      'Le fournisseur n’a pas donné d’autorisation durable (jeton de rafraîchissement) : recommencez en acceptant l’accès demandé.',
    );
  const link: DriveLink = {
    provider: pending.provider,
    account: tokens.account ?? '',
    state: 'connected',
    connectedAt: req.now,
  };
  const previous = await db.transaction(async (tx) => {
    const [replaced] = await tx.query<StoredGrant>(
      `SELECT provider, account, state, refresh_token AS "refreshToken"
       FROM drive_links WHERE installation_id = $1 FOR UPDATE`,
      [req.installationId],
    );
    await tx.query(
      `INSERT INTO drive_links (installation_id, provider, account, refresh_token, access_token, access_expires_at,
         state, connected_at, refreshed_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'connected', $7, $7)
       ON CONFLICT (installation_id) DO UPDATE SET provider = EXCLUDED.provider, account = EXCLUDED.account,
         refresh_token = EXCLUDED.refresh_token, access_token = EXCLUDED.access_token,
         access_expires_at = EXCLUDED.access_expires_at, state = 'connected',
         connected_at = EXCLUDED.connected_at, refreshed_at = EXCLUDED.refreshed_at`,
      [
        req.installationId,
        link.provider,
        link.account,
        seal(settings.key, tokens.refreshToken as string),
        seal(settings.key, tokens.accessToken),
        new Date(req.now.getTime() + tokens.expiresInSeconds * 1000),
        req.now,
      ],
    );
    await recordAudit(tx, {
      installationId: req.installationId,
      syncId: req.syncId,
      actor: 'user',
      action: 'drive.connect',
      address: req.address,
      details: { provider: link.provider },
    });
    return replaced ?? null;
  });
  // The new link is committed (the connector may use it now); the old grant is withdrawn after.
  if (!previous) return { link, previous: null };
  const revocation = await retireGrant(db, settings, previous, {
    installationId: req.installationId,
    syncId: req.syncId,
    address: req.address,
    replacedBy: link,
  });
  return { link, previous: revocation };
}

/** « Déconnecter »: the link deleted, then its grant withdrawn at the provider (drive-revocation.ts). */
export async function disconnectDrive(
  db: Db,
  settings: DriveSettings,
  req: { installationId: string; syncId: string; address: string },
): Promise<Revocation | null> {
  const [row] = await db.query<StoredGrant>(
    `DELETE FROM drive_links WHERE installation_id = $1
     RETURNING provider, account, state, refresh_token AS "refreshToken"`,
    [req.installationId],
  );
  if (!row) return null;
  return retireGrant(db, settings, row, { ...req, replacedBy: null });
}

export interface AccessToken {
  provider: DriveProviderName;
  account: string;
  accessToken: string;
  expiresAt: Date;
}

async function markRevoked(db: Queryable, installationId: string, connectedAt: Date): Promise<void> {
  await db.query(
    `UPDATE drive_links SET state = 'revoked', access_token = NULL, access_expires_at = NULL
     WHERE installation_id = $1 AND connected_at = $2`,
    [installationId, connectedAt],
  );
}

/**
 * GET /api/connector/v1/drive/access-token: the cached access token while it has 5 minutes to
 * live, else a new one from the refresh token (a new refresh token, when the provider rotates it,
 * replaces the stored one). A grant the provider no longer honours marks the link revoked.
 */
export async function accessTokenFor(
  db: Db,
  settings: DriveSettings,
  installationId: string,
  now: Date,
): Promise<AccessToken> {
  const [row] = await db.query<{
    provider: DriveProviderName;
    account: string;
    state: 'connected' | 'revoked';
    connectedAt: Date;
    refreshToken: Uint8Array;
    accessToken: Uint8Array | null;
    expiresAt: Date | null;
  }>(
    `SELECT provider, account, state, connected_at AS "connectedAt", refresh_token AS "refreshToken",
            access_token AS "accessToken", access_expires_at AS "expiresAt"
     FROM drive_links WHERE installation_id = $1`,
    [installationId],
  );
  if (!row) throw new AppError(404, NO_DRIVE_MESSAGE, 'not-found');
  if (row.state === 'revoked') throw new AppError(409, REVOKED_MESSAGE, 'conflict');
  const base = { provider: row.provider, account: row.account };
  if (row.accessToken && row.expiresAt && row.expiresAt.getTime() - now.getTime() >= ACCESS_MARGIN_MS) {
    const cached = unseal(settings.key, row.accessToken);
    if (cached !== null) return { ...base, accessToken: cached, expiresAt: row.expiresAt };
  }
  const client = settings.clients[row.provider];
  if (!client) throw new AppError(409, `${DRIVE_NOT_CONFIGURED}.`, 'conflict');
  const refresh = unseal(settings.key, row.refreshToken);
  if (refresh === null) {
    // Sealed under another SESSION_SECRET: only a new connection helps.
    await markRevoked(db, installationId, row.connectedAt);
    throw new AppError(409, REVOKED_MESSAGE, 'conflict');
  }
  let tokens;
  try {
    tokens = await refreshAccessToken(client, refresh);
  } catch (err) {
    if (!(err instanceof OAuthError)) throw err;
    if (err.kind === 'revoked') {
      await markRevoked(db, installationId, row.connectedAt);
      throw new AppError(409, REVOKED_MESSAGE, 'conflict');
    }
    throw new AppError(503, `${err.message} Réessayez dans une minute.`, 'unavailable', {
      'Retry-After': '60',
    });
  }
  const expiresAt = new Date(now.getTime() + tokens.expiresInSeconds * 1000);
  // Only onto the same connection (a new « Connecter » meanwhile wins).
  await db.query(
    `UPDATE drive_links SET access_token = $3, access_expires_at = $4, refreshed_at = $5,
       refresh_token = coalesce($6, refresh_token), account = CASE WHEN $7 = '' THEN account ELSE $7 END
     WHERE installation_id = $1 AND connected_at = $2 AND state = 'connected'`,
    [
      installationId,
      row.connectedAt,
      seal(settings.key, tokens.accessToken),
      expiresAt,
      now,
      tokens.refreshToken ? seal(settings.key, tokens.refreshToken) : null,
      tokens.account ?? '',
    ],
  );
  return { ...base, accessToken: tokens.accessToken, expiresAt };
}
