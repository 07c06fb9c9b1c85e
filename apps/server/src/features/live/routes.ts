import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_PATHS } from '@synchro/contracts/constants';
import { CONFIG_SECTIONS, SYNC_HISTORY_PATH } from '@synchro/contracts';
import type { AppContext } from '../../context.ts';
import { currentInstallation, requireSession } from '../../http/session-guard.ts';
import { requestInstallation } from '../../http/request-installation.ts';
import { readSessionToken } from '../../http/session-cookie.ts';
import { sessionStillLive } from '../../domain/sessions.ts';
import type { LiveEvent } from '../../live/hub.ts';
import { AppError } from '../../http/errors.ts';

/** GET /api/events: the event stream of the signed-in installation (docs/live.md). */
export const LIVE_EVENTS_PATH = '/api/events';
/**
 * A comment line this often keeps proxies and the browser from closing an idle stream; before it,
 * the stream's session is asked again (ended elsewhere, expired, idle, installation suspended:
 * the stream ends, and EventSource's reconnection then gets its 401).
 */
export const HEARTBEAT_MS = 25_000;
/**
 * Open streams of one installation in this server process, at most: each holds a socket and a
 * timer, and one installation's tabs must not use up what the others need.
 */
export const MAX_STREAMS_PER_INSTALLATION = 50;
/** What EventSource waits before reconnecting after the stream ends (server restart). */
const RETRY_MS = 2_000;

const CONNECTOR = '/api/connector/v1';
const CONFIG_WRITES = new Set<string>([
  ...Object.values(CONFIG_SECTIONS).flatMap((s) => ('save' in s && s.save ? [s.save.path] : [])),
  API_PATHS.debugRepairXml,
  '/api/configuration-history/:version/restore',
  `${CONNECTOR}/configuration`,
]);

const numberIn = (payload: unknown, key: string): number | undefined => {
  if (typeof payload !== 'string' || !payload.startsWith('{')) return undefined;
  try {
    const value = (JSON.parse(payload) as Record<string, unknown>)[key];
    return typeof value === 'number' ? value : undefined;
  } catch {
    return undefined;
  }
};

/**
 * What a successful write told the installation's streams: read from the route's template and its
 * answer, after the answer is made (so after its transaction committed), in one place instead of
 * in each feature (docs/live.md, Sources).
 */
function eventOf(request: FastifyRequest, payload: unknown): LiveEvent | null {
  const method = request.method;
  if (method === 'GET' || method === 'HEAD') return null;
  const url = request.routeOptions.url ?? '';
  if (CONFIG_WRITES.has(url)) {
    const version = numberIn(payload, 'version');
    return version === undefined ? { type: 'config' } : { type: 'config', version };
  }
  if (url === `${CONNECTOR}/automate`) return { type: 'automate' };
  if (url === `${CONNECTOR}/import-records`)
    return { type: 'records', count: numberIn(payload, 'inserted') ?? 0 };
  if (url === `${CONNECTOR}/transactions`)
    return { type: 'transactions', count: numberIn(payload, 'inserted') ?? 0 };
  if (url === `${CONNECTOR}/import-records/:IDInterne/result` || url.startsWith(`${SYNC_HISTORY_PATH}/`))
    return { type: 'record-state' };
  if (url === API_PATHS.syncAutomate) return { type: 'last-sync' };
  return null;
}

export function liveRoutes(app: FastifyInstance, ctx: AppContext): void {
  const hub = ctx.live;
  const open = new Set<() => void>();
  // The streams of each session token: a logout through this server ends them at once.
  const bySession = new Map<string, Set<() => void>>();
  const endAll = () => {
    for (const end of [...open]) end();
  };
  const endSession = (token: string) => {
    for (const end of [...(bySession.get(token) ?? [])]) end();
  };
  const perInstallation = new Map<string, number>();
  // The server stopping (SIGTERM, lifecycle.ts) ends every stream (one listener for all of them):
  // EventSource reconnects to the next server after `retry`.
  ctx.lifecycle.signal.addEventListener('abort', endAll, { once: true });
  // A callback hook, not an async one: it runs on every request.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.method === 'POST' && request.routeOptions.url === API_PATHS.logout) {
      const token = readSessionToken(request);
      if (token) endSession(token);
    }
    const event = reply.statusCode >= 300 ? null : eventOf(request, payload);
    const installation = event && event.count !== 0 ? requestInstallation(request) : null;
    if (event && installation) hub.publish(installation.id, event);
    done();
  });

  app.get(
    LIVE_EVENTS_PATH,
    { preHandler: requireSession(ctx) },
    (request: FastifyRequest, reply: FastifyReply) => {
      const installation = currentInstallation(request);
      // requireSession passed: the cookie holds a live session's token.
      const token = readSessionToken(request) ?? '';
      const streamsOpen = perInstallation.get(installation.id) ?? 0;
      if (streamsOpen >= MAX_STREAMS_PER_INSTALLATION)
        throw new AppError(
          429,
          `Trop de fenêtres de la console ouvertes pour cette installation (${MAX_STREAMS_PER_INSTALLATION} au plus) : fermez-en pour recevoir les mises à jour en direct.`,
          'too-many-streams',
        );
      perInstallation.set(installation.id, streamsOpen + 1);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache, no-transform',
        Connection: 'keep-alive',
        // nginx: do not buffer the stream.
        'X-Accel-Buffering': 'no',
      });
      res.write(`retry: ${RETRY_MS}\n\n`);
      let id = 0;
      const unsubscribe = hub.subscribe(installation.id, (event) => {
        res.write(`id: ${++id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      });
      const streams = bySession.get(token) ?? new Set<() => void>();
      bySession.set(token, streams);
      const heartbeat = setInterval(() => {
        sessionStillLive(ctx.db, token, ctx.sessionSecret, ctx.now()).then(
          (live) => (live ? res.write(': ping\n\n') : end()),
          // The database not answering: end too; the reconnection asks again.
          () => end(),
        );
      }, ctx.liveHeartbeatMs);
      const end = () => {
        if (!open.has(end)) return;
        const left = (perInstallation.get(installation.id) ?? 1) - 1;
        if (left > 0) perInstallation.set(installation.id, left);
        else perInstallation.delete(installation.id);
        open.delete(end);
        streams.delete(end);
        if (streams.size === 0) bySession.delete(token);
        clearInterval(heartbeat);
        unsubscribe();
        if (!res.writableEnded) res.end();
      };
      streams.add(end);
      open.add(end);
      if (ctx.lifecycle.stopping) end();
      request.raw.on('close', end);
      res.on('error', end);
    },
  );

  // fastify's close waits for open connections: the streams end first (preClose), so that a stop
  // (main.ts, SIGTERM) or a test's close never waits on them.
  app.addHook('preClose', async () => endAll());
  app.addHook('onClose', async () => {
    await hub.close();
  });
}
