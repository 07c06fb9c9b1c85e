import type { FastifyInstance } from 'fastify';
import type { ServerMetrics } from '../metrics/registry.ts';
import { redactUrl } from './logging.ts';
import { requestInstallation } from './request-installation.ts';

/** Probes of the load balancer: not logged at info level (they come every few seconds). */
const QUIET_ROUTES = new Set(['/healthz', '/readyz']);

/**
 * One JSON line per request (fastify's own two lines are off): method, route template, URL with
 * its secrets masked, status, duration, installation (sync id), client address. The same facts
 * go to the metrics (by route template, never the raw URL). Fields: docs/production.md, Logs.
 */
export function installRequestLog(app: FastifyInstance, metrics: ServerMetrics): void {
  // A callback hook, not an async one: it runs on every request.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? null;
    const seconds = reply.elapsedTime / 1000;
    metrics.request(route ?? 'unmatched', request.method, reply.statusCode, seconds);
    const installation = requestInstallation(request);
    const line = {
      method: request.method,
      route,
      url: redactUrl(request.url),
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
      ...(installation ? { installation: installation.syncId } : {}),
      address: request.ip,
    };
    if (route !== null && QUIET_ROUTES.has(route)) request.log.debug(line, 'requête');
    else request.log.info(line, 'requête');
    done();
  });
}
