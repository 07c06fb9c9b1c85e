import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { TDriveConnectAnswer } from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import { OAuth2Server } from 'oauth2-mock-server';
import { expect } from 'vitest';
import type { OAuthClientSettings } from '../../src/config/mail-env.ts';
import { PUBLIC_URL } from './mail.ts';
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

/**
 * A provider's revocation endpoint played by a node:http server on 127.0.0.1, answering as the
 * test says: 200 (accepted), 503 (refused) or never (hangs until stopped). It records the forms
 * it received (RFC 7009: token, token_type_hint, the client's id and secret).
 */
export interface ScriptedRevocation {
  url: string;
  answer: 'accept' | 'refuse' | 'hang';
  forms: URLSearchParams[];
  /** The tokens of the forms received, in order. */
  readonly tokens: string[];
  stop(): Promise<void>;
}

export async function scriptedRevocation(): Promise<ScriptedRevocation> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      endpoint.forms.push(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      if (endpoint.answer === 'hang') return;
      res.writeHead(endpoint.answer === 'accept' ? 200 : 503, { 'Content-Type': 'application/json' });
      res.end(endpoint.answer === 'accept' ? '{}' : '{"error":"temporarily_unavailable"}');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint: ScriptedRevocation = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/revoke`,
    answer: 'accept',
    forms: [],
    get tokens() {
      return endpoint.forms.map((f) => f.get('token') ?? '');
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return endpoint;
}

/**
 * « Connecter » as the browser makes it: connect, the provider's page, its redirect to the
 * callback. The address the browser is then sent to (`/complement?drive=<code>`).
 */
export async function connectDrive(app: FastifyInstance, cookie: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/drive/connect',
    headers: { cookie },
    payload: { provider: 'google' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { authorizationUrl } = res.json<TDriveConnectAnswer>();
  const atProvider = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(atProvider.status).toBe(302);
  const back = new URL(atProvider.headers.get('location') ?? '');
  expect(`${back.origin}${back.pathname}`).toBe(`${PUBLIC_URL}/api/drive/callback`);
  const callback = await app.inject({ url: `${back.pathname}${back.search}`, headers: { cookie } });
  expect(callback.statusCode).toBe(302);
  return callback.headers.location as string;
}
