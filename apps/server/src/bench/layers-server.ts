/**
 * The server side of bench/delivery/layers.ts (bench tooling: run from the sources by tsx, never
 * bundled; here because nothing outside apps/server imports its modules): one process, one database (DATA_DIR or DATABASE_URL),
 * and one fastify per step on a port of its own, each step adding one of the console's
 * per-request layers to the previous one, with the real modules of apps/server (never copies):
 *
 *   bare        fastify without logger, the route sends the bytes the console sent, with its headers
 *   logger      + the logger as in production (loggerOptions at info, to stdout; fastify's own
 *                 request lines off, its child logger per request on)
 *   request-log + the request log line (http/request-log.ts), metrics left out
 *   metrics     + the metrics of that hook (metrics/registry.ts)
 *   guards      + stopping, error handling, origin and content-type guards, security headers,
 *                 body limits, the Connection hook (app.ts)
 *   plugins     + @fastify/cookie and @fastify/compress (http/compression.ts)
 *   session     + the session check (http/session-guard.ts: the cookie, the HMAC, the prepared
 *                 session query against the database, the installation's refusals)
 *   route       + the real route (configuration cache, representation send): userRoutes,
 *                 configurationRoutes
 *   app         buildApp itself: every route and hook of the console
 *
 * It opens the database (already migrated, with the installation `--sync-id`), creates one
 * session, and tells its parent (IPC) `{ ports, cookie }`; then, on `{ probe: n }`, times n calls
 * of the session check's parts one after the other and answers their CPU µs per call.
 * Logs go to this process's standard output, which the parent points at /dev/null.
 */
import fastifyCookie from '@fastify/cookie';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { parseArgs } from 'node:util';
import { buildApp, createAppContext } from '../app.ts';
import type { AppContext } from '../context.ts';
import { openDatabase } from '../db/open.ts';
import type { Db } from '../db/types.ts';
import { findInstallationBySyncId } from '../domain/installations.ts';
import { createSession, findLiveSession } from '../domain/sessions.ts';
import { configurationRoutes } from '../features/configuration/routes.ts';
import { userRoutes } from '../features/user/routes.ts';
import { installBodyLimits, BODY_LIMITS } from '../http/body-limits.ts';
import { installCompression } from '../http/compression.ts';
import { installErrorHandling } from '../http/error-handler.ts';
import { installJsonBodyParser } from '../http/json-body.ts';
import { loggerOptions } from '../http/logging.ts';
import { installRequestLog } from '../http/request-log.ts';
import { installRequestGuards } from '../http/security.ts';
import { installSessionGuard, requireSession } from '../http/session-guard.ts';
import { SESSION_COOKIE } from '../http/session-cookie.ts';
import { refuseWhileStopping } from '../http/stopping.ts';
import { createMetrics, type ServerMetrics } from '../metrics/registry.ts';
import { createOffloadPool } from '../offload/pool.ts';
import { hashSessionToken } from '../security/secrets.ts';

/** The steps, each adding one layer to the one before (the list above). */
const STEPS = [
  'bare',
  'logger',
  'request-log',
  'metrics',
  'guards',
  'plugins',
  'session',
  'route',
  'app',
] as const;
type Step = (typeof STEPS)[number];

/** What the parent is told once every step listens: the steps in order, their ports, the cookie. */
export interface Ready {
  steps: Step[];
  ports: Record<Step, number>;
  cookie: string;
}

const { values } = parseArgs({
  options: {
    'sync-id': { type: 'string' },
    routes: { type: 'string', default: '/api/user,/api/config/planifications' },
  },
});

interface Sent {
  headers: Record<string, string>;
  body: Buffer;
}

/** The answer of the real app to a route and encoding: what the earlier steps send as they are. */
async function answersOf(app: FastifyInstance, cookie: string, routes: string[]) {
  const sent = new Map<string, Sent>();
  for (const route of routes) {
    for (const encoding of ['br, gzip', '']) {
      const res = await app.inject({
        method: 'GET',
        url: route,
        headers: { cookie, ...(encoding ? { 'accept-encoding': encoding } : {}) },
      });
      if (res.statusCode !== 200) throw new Error(`${route}: ${res.statusCode}`);
      const headers: Record<string, string> = {};
      for (const name of ['content-type', 'content-encoding', 'vary', 'etag', 'cache-control']) {
        const v = res.headers[name];
        if (v !== undefined) headers[name] = String(v);
      }
      sent.set(`${route}\n${encoding}`, { headers, body: res.rawPayload });
    }
  }
  return sent;
}

/** One step's app: the layers up to `step`, the route sending `sent` (or the real routes). */
async function layered(step: Step, ctx: AppContext, sent: Map<string, Sent>): Promise<FastifyInstance> {
  // The request-log step: the same hook with a metrics object whose request() does nothing.
  const noMetrics: ServerMetrics = { ...ctx.metrics, request: () => {} };
  const at = (s: Step) => STEPS.indexOf(step) >= STEPS.indexOf(s);
  const app = Fastify({
    logger: at('logger') ? loggerOptions('info') : false,
    bodyLimit: BODY_LIMITS.default,
    routerOptions: { maxParamLength: 2048 },
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: false,
  });
  if (at('guards')) installJsonBodyParser(app);
  if (at('request-log')) installRequestLog(app, at('metrics') ? ctx.metrics : noMetrics);
  if (at('guards')) {
    app.addHook('onSend', async (_request, reply) => {
      if (ctx.lifecycle.stopping) void reply.header('Connection', 'close');
    });
    refuseWhileStopping(app, ctx.lifecycle);
    installErrorHandling(app);
    installRequestGuards(app, { allowedOrigins: [] });
    installSessionGuard(app);
    installBodyLimits(app);
  }
  if (at('plugins')) {
    await app.register(fastifyCookie);
    await installCompression(app);
  }
  if (at('route')) {
    userRoutes(app, ctx);
    configurationRoutes(app, ctx);
    return app;
  }
  const routes = new Set([...sent.keys()].map((k) => k.split('\n')[0] ?? ''));
  for (const route of routes) {
    app.get(route, at('session') ? { preHandler: requireSession(ctx) } : {}, (request, reply) => {
      const encoding = request.headers['accept-encoding'] ? 'br, gzip' : '';
      const answer = sent.get(`${route}\n${encoding}`);
      if (!answer) throw new Error(`no answer for ${route} [${encoding}]`);
      void reply.headers(answer.headers);
      return reply.send(answer.body);
    });
  }
  return app;
}

async function main(): Promise<void> {
  const syncId = values['sync-id'];
  if (!syncId) throw new Error('--sync-id is required');
  const secret = process.env.SESSION_SECRET ?? '';
  const db = await openDatabase({
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: process.env.DATA_DIR ?? '',
  });
  const offload = createOffloadPool({ threads: 1 });
  const installation = await findInstallationBySyncId(db, syncId);
  if (!installation) throw new Error(`unknown installation ${syncId}`);
  const token = await createSession(db, {
    installationId: installation.id,
    secret,
    address: '127.0.0.1',
    now: new Date(),
  });
  const cookie = `${SESSION_COOKIE}=${token}`;
  const deps = { db, sessionSecret: secret, offload, logLevel: 'info' };
  const full = await buildApp(deps);
  const sent = await answersOf(full, cookie, values.routes.split(','));
  const ctx = createAppContext({
    ...deps,
    metrics: createMetrics({ db, perInstallation: false, processMetrics: false }),
  });
  const ports = {} as Record<Step, number>;
  for (const step of STEPS) {
    const app = step === 'app' ? full : await layered(step, ctx, sent);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    ports[step] = typeof address === 'object' && address ? address.port : 0;
  }
  process.on('message', (message: { probe?: number }) => {
    if (message.probe)
      void probe(db, token, secret, message.probe).then((result) => process.send?.({ probe: result }));
  });
  const ready: Ready = { steps: [...STEPS], ports, cookie };
  process.send?.({ ready });
}

/**
 * The session check's parts, n calls each one after the other, CPU µs per call of this process
 * (all its threads: the embedded database's included) and wall µs: the HMAC of the token, a
 * prepared `SELECT 1` (the round trip alone), the session query itself, findLiveSession whole.
 */
async function probe(db: Db, token: string, secret: string, n: number) {
  const hash = hashSessionToken(token, secret);
  const parts: Record<string, () => Promise<unknown> | unknown> = {
    hmac: () => hashSessionToken(token, secret),
    'select 1 (prepared)': () => db.query('SELECT 1 AS one', [], { prepare: 'bench_select_one' }),
    'session query (prepared)': () =>
      db.query(`SELECT s.last_seen_at, s.expires_at FROM sessions s WHERE s.token_hash = $1`, [hash], {
        prepare: 'bench_session_only',
      }),
    findLiveSession: () => findLiveSession(db, token, secret, new Date()),
  };
  const out: Record<string, { cpuUs: number; wallUs: number }> = {};
  for (const [name, run] of Object.entries(parts)) {
    for (let i = 0; i < Math.min(200, n); i += 1) await run();
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i += 1) await run();
    const wall = Number(process.hrtime.bigint() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    out[name] = { cpuUs: (cpu.user + cpu.system) / n, wallUs: wall / n };
  }
  return out;
}

await main();
