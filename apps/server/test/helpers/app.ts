import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp, type AppDeps } from '../../src/app.ts';
import type { Db } from '../../src/db/types.ts';
import { createInstallation, type NewInstallation } from '../../src/domain/installation-admin.ts';
import { DEMO_CONFIG_FILE } from '../../src/paths.ts';
import { openTestDb } from './db.ts';
import { capture, type SecretCollector } from './secret-capture.ts';

export const FIXTURE_CONFIG = readFileSync(DEMO_CONFIG_FILE, 'utf8');
export const TEST_SESSION_SECRET = 'test-session-secret-0123456789abcdef';

/** The passwords of a configuration text, for the secrets scan. */
function registerConfigSecrets(text: string): void {
  for (const m of text.matchAll(/<MDP>([^<]+)<\/MDP>/g)) capture.register(m[1], 'config-secret');
}
registerConfigSecrets(FIXTURE_CONFIG);

/**
 * An app on `db` for `inject`. Its answers and log lines (level `info` unless the test sets one)
 * go to the secrets scan's collector (helpers/secret-capture.ts), and to the test's own log
 * stream when it gives one.
 */
export async function testApp(
  db: Db,
  extra: Partial<AppDeps> = {},
  collector: SecretCollector = capture,
): Promise<FastifyInstance> {
  const own = extra.logStream;
  const logStream = collector.logStream();
  const tee = own
    ? new Writable({
        write(chunk: Buffer, _encoding, done) {
          logStream.write(chunk);
          own.write(chunk);
          done();
        },
      })
    : logStream;
  const app = await buildApp({
    db,
    sessionSecret: TEST_SESSION_SECRET,
    ...extra,
    logLevel: extra.logLevel ?? 'info',
    logStream: tee,
  });
  collector.watch(app);
  await app.ready();
  return app;
}

/** The database and the app of {@link useTestApp}, there once its `beforeAll` has run. */
export interface TestAppContext {
  readonly db: Db;
  readonly app: FastifyInstance;
}

/**
 * A fresh database (`openTestDb`) and an app on it (`testApp`) for the tests of the file or
 * `describe` it is called in: opened by a `beforeAll`, closed by an `afterAll` (the app, then the
 * database). `deps` and `collector` are `testApp`'s.
 */
export function useTestApp(
  deps: Partial<AppDeps> = {},
  collector: SecretCollector = capture,
): TestAppContext {
  let db: Db | undefined;
  let app: FastifyInstance | undefined;
  beforeAll(async () => {
    db = await openTestDb();
    app = await testApp(db, deps, collector);
  });
  afterAll(async () => {
    // After a failed beforeAll, closes what it did open.
    await app?.close();
    await db?.close();
  });
  return {
    get db() {
      if (!db) throw new Error('useTestApp: db read before its beforeAll has run');
      return db;
    },
    get app() {
      if (!app) throw new Error('useTestApp: app read before its beforeAll has run');
      return app;
    },
  };
}

/** An installation with the fixture configuration, signed in with `clientId`. */
export async function addInstallation(db: Db, input: Partial<NewInstallation> & { syncId: string }) {
  capture.register(input.clientId ?? 'client-secret', 'client-id');
  if (input.configText) registerConfigSecrets(input.configText);
  const created = await createInstallation(db, {
    clientId: 'client-secret',
    configText: FIXTURE_CONFIG,
    premium: true,
    options: `25;${input.syncId};A`,
    software: '1;EBP GesCom Open Line;EBPGesComOL|2;EBP Gestion Open Line;GesCom',
    ...input,
  });
  capture.register(created.connectorToken, 'connector-token');
  return created;
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
  capture.register(cookie.value, 'session-token');
  return `synchro_session=${cookie.value}`;
}

export async function signIn(
  app: FastifyInstance,
  syncId: string,
  password = 'client-secret',
): Promise<string> {
  return sessionCookie(await login(app, syncId, password));
}
