import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { installationColumns, isExpired, type Installation } from '../../domain/installations.ts';
import { storageUseOf, type StorageUse } from '../../domain/storage.ts';
import type { Queryable } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { hashConnectorToken } from '../../security/secrets.ts';
import type { ConnectorBucket, ConnectorRateLimits } from './limits.ts';
import { rateHitSql, rateWindowStart, refuseOverLimit } from './rate-limit.ts';
import { noteRequestInstallation } from '../../http/request-installation.ts';

/**
 * The bearer token of the connector API (docs/connector-api.md, « Jeton »): it names the
 * installation. Only its SHA-256 is stored; a request's token is hashed and looked up by that
 * hash through the unique index, then the two hashes are compared in constant time. (A token is
 * 256 random bits: the index lookup's timing cannot help guess one, since nobody can choose the
 * hash of a token.) The same round trip reads what the routes need of the installation and counts
 * the request in its rate limit (one query before the body is read).
 */

export interface ConnectorCaller {
  installation: Installation;
  /** The stored configuration version, read with the token (keys the configuration cache). */
  configVersion: number;
  /** Its storage and quota, read with the token (the 507 of the batch routes: domain/storage.ts). */
  storageUse: (defaultQuotaBytes: number) => StorageUse;
}

interface FoundToken {
  installation: Installation;
  tokenHash: string;
  configVersion: number;
  usedBytes: string | null;
  quotaBytes: string | null;
  /** The window's hits with this request; null when it was not counted (suspended, expired). */
  rateHits: number | null;
}

/**
 * The installation of a token hash, or null; in the same statement its configuration version, its
 * storage use, and the request counted in the rate limit of `bucket` unless the installation is
 * suspended or expired at `now` (isExpired: it is refused first, and a refused request counts
 * nothing).
 */
async function findToken(
  db: Queryable,
  tokenHash: string,
  bucket: ConnectorBucket,
  now: Date,
): Promise<FoundToken | null> {
  const [row] = await db.query<Installation & Omit<FoundToken, 'installation'>>(
    `WITH found AS (
       SELECT ${installationColumns('i')}, i.connector_token_hash AS "tokenHash",
         coalesce(c.version, 0) AS "configVersion",
         (SELECT s.bytes FROM installation_storage s WHERE s.installation_id = i.id)::text AS "usedBytes",
         i.storage_quota_bytes::text AS "quotaBytes"
       FROM installations i LEFT JOIN configurations c ON c.installation_id = i.id
       WHERE i.connector_token_hash = $1),
     hit AS (${rateHitSql(
       `SELECT id, $2::text, $3::timestamptz, 1 FROM found
        WHERE NOT suspended AND ("expiresAt" IS NULL OR "expiresAt" > $4::timestamptz)`,
     )})
     SELECT found.*, (SELECT hits FROM hit) AS "rateHits" FROM found`,
    [tokenHash, bucket, rateWindowStart(now), now],
    { prepare: 'connector_token' },
  );
  if (!row) return null;
  const { tokenHash: stored, configVersion, usedBytes, quotaBytes, rateHits, ...installation } = row;
  return { installation, tokenHash: stored, configVersion, usedBytes, quotaBytes, rateHits };
}

const callers = new WeakMap<FastifyRequest, ConnectorCaller>();

const REALM = 'Bearer realm="synchro-connector"';

export const MISSING_TOKEN_MESSAGE =
  'Jeton du connecteur manquant : envoyez l’en-tête Authorization: Bearer <jeton>.';
export const MALFORMED_TOKEN_MESSAGE =
  'En-tête Authorization invalide : « Bearer » suivi du jeton du connecteur attendu.';
export const WRONG_TOKEN_MESSAGE =
  'Jeton du connecteur refusé : il est inconnu ou a été remplacé. Configurez le connecteur avec le jeton en vigueur de l’installation.';
export const SUSPENDED_CONNECTOR_MESSAGE =
  'Cette installation est suspendue : le connecteur ne peut plus échanger avec la console. Contactez votre fournisseur.';
export const EXPIRED_CONNECTOR_MESSAGE =
  'La licence de cette installation a expiré : le connecteur ne peut plus échanger avec la console. Contactez votre fournisseur pour la renouveler.';

// RFC 6750 token68; our tokens are 43 base64url characters.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]{1,512}=*) *$/i;

function unauthorized(message: string, invalidToken: boolean): AppError {
  return new AppError(401, message, 'unauthorized', {
    'WWW-Authenticate': invalidToken ? `${REALM}, error="invalid_token"` : REALM,
  });
}

/** The token of an Authorization header, or the 401 to answer. */
export function bearerToken(header: string | undefined): string {
  if (header === undefined || header.trim() === '') throw unauthorized(MISSING_TOKEN_MESSAGE, false);
  const m = BEARER.exec(header);
  if (!m?.[1]) throw unauthorized(MALFORMED_TOKEN_MESSAGE, true);
  return m[1];
}

/**
 * onRequest hook of a connector route (before the body is read): the token's installation, 403
 * when it is suspended or expired, then the route group's rate limit.
 */
export function requireConnector(ctx: AppContext, bucket: ConnectorBucket, limits: ConnectorRateLimits) {
  return async (request: FastifyRequest): Promise<void> => {
    const hash = hashConnectorToken(bearerToken(request.headers.authorization));
    const now = ctx.now();
    const found = await findToken(ctx.db, hash, bucket, now);
    if (!found || !timingSafeEqual(Buffer.from(found.tokenHash), Buffer.from(hash))) {
      throw unauthorized(WRONG_TOKEN_MESSAGE, true);
    }
    if (found.installation.suspended) throw new AppError(403, SUSPENDED_CONNECTOR_MESSAGE, 'forbidden');
    if (isExpired(found.installation, now)) throw new AppError(403, EXPIRED_CONNECTOR_MESSAGE, 'forbidden');
    refuseOverLimit(found.rateHits ?? 0, limits[bucket], rateWindowStart(now), now);
    const { usedBytes, quotaBytes } = found;
    callers.set(request, {
      installation: found.installation,
      configVersion: found.configVersion,
      storageUse: (defaultQuotaBytes) => storageUseOf(usedBytes, quotaBytes, defaultQuotaBytes),
    });
    noteRequestInstallation(request, found.installation);
  };
}

/** The caller of a request that passed requireConnector. */
export function connectorCaller(request: FastifyRequest): ConnectorCaller {
  const found = callers.get(request);
  if (!found) throw unauthorized(MISSING_TOKEN_MESSAGE, false);
  return found;
}
