import { createHash, randomBytes } from 'node:crypto';
import type { OAuthClientSettings } from '../config/mail-env.ts';

/**
 * The OAuth 2.0 client of the drive link (docs/mail.md, Drive): authorisation code with PKCE
 * (RFC 7636, S256), the code exchanged and the refresh token used at the provider's token
 * endpoint (client_secret_post), revocation (RFC 7009) where the provider has one. Every call is
 * bounded by 10 s. Errors carry French messages and never a token nor the client secret.
 */

export const OAUTH_TIMEOUT_MS = 10_000;

export interface TokenSet {
  accessToken: string;
  /** Absent when the provider keeps the previous one (a refresh). */
  refreshToken: string | undefined;
  expiresInSeconds: number;
  /** The account's address or name, from the id token when there is one. */
  account: string | undefined;
}

export class OAuthError extends Error {
  constructor(
    /** revoked: the grant is no longer valid (invalid_grant); refused: another OAuth error; unavailable: no usable answer. */
    readonly kind: 'revoked' | 'refused' | 'unavailable',
    message: string,
  ) {
    super(message);
    this.name = 'OAuthError';
  }
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizationUrl(
  client: OAuthClientSettings,
  params: { redirectUri: string; state: string; challenge: string },
): string {
  const url = new URL(client.authorizationUrl);
  const query = {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: params.redirectUri,
    scope: client.scope,
    state: params.state,
    code_challenge: params.challenge,
    code_challenge_method: 'S256',
    ...client.authorizationParams,
  };
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}

/** The `email` (else `preferred_username`, `upn`, `name`) of an id token's payload; not verified (it comes from the token endpoint itself, over TLS). */
function accountOf(idToken: unknown): string | undefined {
  if (typeof idToken !== 'string') return undefined;
  const payload = idToken.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    for (const name of ['email', 'preferred_username', 'upn', 'name']) {
      const value = claims[name];
      if (typeof value === 'string' && value.trim() !== '') return value.trim().slice(0, 200);
    }
  } catch {
    // An id token that cannot be read names no account.
  }
  return undefined;
}

async function tokenRequest(
  client: OAuthClientSettings,
  form: Record<string, string>,
  timeoutMs: number,
): Promise<TokenSet> {
  const provider = new URL(client.tokenUrl).host;
  let res: Response;
  try {
    res = await fetch(client.tokenUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: new URLSearchParams({ ...form, client_id: client.clientId, client_secret: client.clientSecret }),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const timeout = (err as Error).name === 'TimeoutError';
    throw new OAuthError(
      'unavailable',
      timeout
        ? `Le fournisseur du Drive (${provider}) n’a pas répondu dans les ${Math.round(timeoutMs / 1000)} secondes.`
        : `Le fournisseur du Drive (${provider}) est injoignable.`,
    );
  }
  let body: Record<string, unknown> = {};
  try {
    body = (await res.json()) as Record<string, unknown>;
  } catch {
    // Read below as an unusable answer.
  }
  if (!res.ok) {
    const code = typeof body.error === 'string' ? body.error : `HTTP ${res.status}`;
    if (code === 'invalid_grant')
      throw new OAuthError(
        'revoked',
        `Le fournisseur du Drive (${provider}) a révoqué l’autorisation (invalid_grant).`,
      );
    if (res.status >= 500 || res.status === 429)
      throw new OAuthError(
        'unavailable',
        `Le fournisseur du Drive (${provider}) est indisponible (HTTP ${res.status}).`,
      );
    throw new OAuthError(
      'refused',
      `Le fournisseur du Drive (${provider}) a refusé la demande (${code.slice(0, 80)}).`,
    );
  }
  if (typeof body.access_token !== 'string' || body.access_token === '')
    throw new OAuthError(
      'unavailable',
      `Réponse illisible du fournisseur du Drive (${provider}) : aucun jeton d’accès.`,
    );
  const expires = Number(body.expires_in);
  return {
    accessToken: body.access_token,
    refreshToken:
      typeof body.refresh_token === 'string' && body.refresh_token !== '' ? body.refresh_token : undefined,
    expiresInSeconds: Number.isFinite(expires) && expires > 0 ? Math.min(expires, 24 * 3600) : 3600,
    account: accountOf(body.id_token),
  };
}

export function exchangeCode(
  client: OAuthClientSettings,
  params: { code: string; verifier: string; redirectUri: string },
  timeoutMs = OAUTH_TIMEOUT_MS,
): Promise<TokenSet> {
  return tokenRequest(
    client,
    {
      grant_type: 'authorization_code',
      code: params.code,
      code_verifier: params.verifier,
      redirect_uri: params.redirectUri,
    },
    timeoutMs,
  );
}

export function refreshAccessToken(
  client: OAuthClientSettings,
  refreshToken: string,
  timeoutMs = OAUTH_TIMEOUT_MS,
): Promise<TokenSet> {
  return tokenRequest(client, { grant_type: 'refresh_token', refresh_token: refreshToken }, timeoutMs);
}

/**
 * What came of a revocation (RFC 7009): accepted by the provider, not obtained (refused, no usable
 * answer, no answer within the bound), or not possible (the provider has no endpoint: Microsoft).
 */
export type RevocationAnswer = 'revoked' | 'failed' | 'unsupported';

/** Revokes a refresh token at the provider, when it has an endpoint for it; never throws. */
export async function revokeToken(
  client: OAuthClientSettings,
  token: string,
  timeoutMs = OAUTH_TIMEOUT_MS,
): Promise<RevocationAnswer> {
  if (!client.revocationUrl) return 'unsupported';
  try {
    const res = await fetch(client.revocationUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token,
        token_type_hint: 'refresh_token',
        client_id: client.clientId,
        client_secret: client.clientSecret,
      }),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    // The body is not needed; read it so that the connection is given back.
    await res.arrayBuffer().catch(() => undefined);
    return res.ok ? 'revoked' : 'failed';
  } catch {
    return 'failed';
  }
}
