import { readFileSync } from 'node:fs';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppDeps } from '../../src/app.ts';
import type { Db } from '../../src/db/types.ts';
import { createInstallation, type NewInstallation } from '../../src/domain/installation-admin.ts';
import { DEMO_CONFIG_FILE } from '../../src/paths.ts';

export const FIXTURE_CONFIG = readFileSync(DEMO_CONFIG_FILE, 'utf8');
export const TEST_SESSION_SECRET = 'test-session-secret-0123456789abcdef';

export async function testApp(db: Db, extra: Partial<AppDeps> = {}): Promise<FastifyInstance> {
  const app = await buildApp({ db, sessionSecret: TEST_SESSION_SECRET, logLevel: 'silent', ...extra });
  await app.ready();
  return app;
}

/** An installation with the fixture configuration, signed in with `clientId`. */
export async function addInstallation(db: Db, input: Partial<NewInstallation> & { syncId: string }) {
  return createInstallation(db, {
    clientId: 'client-secret',
    configText: FIXTURE_CONFIG,
    premium: true,
    options: `25;${input.syncId};A`,
    software: '1;EBP GesCom Open Line;EBPGesComOL|2;EBP Gestion Open Line;GesCom',
    ...input,
  });
}

export function login(
  app: FastifyInstance,
  username: string,
  password = 'client-secret',
  headers: Record<string, string> = {},
) {
  return app.inject({ method: 'POST', url: '/api/login', payload: { username, password }, headers });
}

/** The `Cookie` header that sends back the session cookie set by a response. */
export function sessionCookie(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'synchro_session');
  if (!cookie) throw new Error(`no session cookie in ${res.statusCode} ${res.body}`);
  return `synchro_session=${cookie.value}`;
}

export async function signIn(
  app: FastifyInstance,
  syncId: string,
  password = 'client-secret',
): Promise<string> {
  return sessionCookie(await login(app, syncId, password));
}
