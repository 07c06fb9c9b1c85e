import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import {
  findInstallationByConnectorTokenHash,
  isExpired,
  type Installation,
} from '../../domain/installations.ts';
import { AppError } from '../../http/errors.ts';
import { hashConnectorToken } from '../../security/secrets.ts';
import type { ConnectorBucket, ConnectorRateLimits } from './limits.ts';
import { enforceRateLimit } from './rate-limit.ts';
import { noteRequestInstallation } from '../../http/request-installation.ts';

/**
 * The bearer token of the connector API (docs/connector-api.md, « Jeton »): it names the
 * installation. Only its SHA-256 is stored; a request's token is hashed and looked up by that
 * hash through the unique index, then the two hashes are compared in constant time. (A token is
 * 256 random bits: the index lookup's timing cannot help guess one, since nobody can choose the
 * hash of a token.)
 */

export interface ConnectorCaller {
  installation: Installation;
  /** The stored configuration version, read with the token (keys the configuration cache). */
  configVersion: number;
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
    const found = await findInstallationByConnectorTokenHash(ctx.db, hash);
    if (!found || !timingSafeEqual(Buffer.from(found.tokenHash), Buffer.from(hash))) {
      throw unauthorized(WRONG_TOKEN_MESSAGE, true);
    }
    const now = ctx.now();
    if (found.installation.suspended) throw new AppError(403, SUSPENDED_CONNECTOR_MESSAGE, 'forbidden');
    if (isExpired(found.installation, now)) throw new AppError(403, EXPIRED_CONNECTOR_MESSAGE, 'forbidden');
    await enforceRateLimit(ctx.db, found.installation.id, bucket, limits[bucket], now);
    callers.set(request, { installation: found.installation, configVersion: found.configVersion });
    noteRequestInstallation(request, found.installation);
  };
}

/** The caller of a request that passed requireConnector. */
export function connectorCaller(request: FastifyRequest): ConnectorCaller {
  const found = callers.get(request);
  if (!found) throw unauthorized(MISSING_TOKEN_MESSAGE, false);
  return found;
}
