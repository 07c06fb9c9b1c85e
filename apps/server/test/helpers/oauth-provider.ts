import { OAuth2Server } from 'oauth2-mock-server';
import type { OAuthClientSettings } from '../../src/config/mail-env.ts';
import { capture } from './secret-capture.ts';

/**
 * A real OAuth 2.0 authorisation server for the drive tests (oauth2-mock-server, on 127.0.0.1):
 * authorisation code with PKCE checked, refresh tokens, revocation. The test decides the
 * account's address, and whether refresh tokens are still honoured (`revoked`: invalid_grant).
 */
export interface TestProvider {
  url: string;
  client: OAuthClientSettings;
  /** Grant types of the token requests received, in order. */
  grants: string[];
  /** Tokens revoked through the revocation endpoint. */
  revocations: string[];
  /** Refresh tokens it handed out. */
  refreshTokens: string[];
  account: string;
  revoked: boolean;
  stop(): Promise<void>;
}

export async function startProvider(): Promise<TestProvider> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  const url = (server.issuer.url ?? '').replace(/\/$/, '');
  const provider: TestProvider = {
    url,
    client: {
      clientId: 'console-client-id',
      clientSecret: 'console-client-secret-0123456789',
      authorizationUrl: `${url}/authorize`,
      tokenUrl: `${url}/token`,
      revocationUrl: `${url}/revoke`,
      scope: 'openid email https://www.googleapis.com/auth/drive.file',
      authorizationParams: { access_type: 'offline', prompt: 'consent' },
    },
    grants: [],
    revocations: [],
    refreshTokens: [],
    account: 'compte.ged@exemple.fr',
    revoked: false,
    stop: () => server.stop(),
  };
  server.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    token.payload.email = provider.account;
  });
  server.service.on(
    'beforeResponse',
    (
      response: { body: Record<string, unknown>; statusCode: number },
      req: { body: Record<string, string> },
    ) => {
      provider.grants.push(req.body.grant_type ?? '');
      if (provider.revoked && req.body.grant_type === 'refresh_token') {
        response.statusCode = 400;
        response.body = { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' };
        return;
      }
      for (const name of ['access_token', 'id_token'] as const)
        capture.register(response.body[name] as string | undefined, 'oauth-access-token');
      const refresh = response.body.refresh_token;
      if (typeof refresh === 'string') {
        provider.refreshTokens.push(refresh);
        capture.register(refresh, 'oauth-refresh-token');
      }
    },
  );
  // The mock parses no form body on /revoke (RFC 7009 sends one): it is read here.
  server.service.on('beforeRevoke', (_response: unknown, req: NodeJS.ReadableStream) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      provider.revocations.push(
        new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('token') ?? '',
      );
    });
  });
  return provider;
}
