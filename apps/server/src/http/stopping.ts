import type { FastifyInstance } from 'fastify';
import type { Lifecycle } from '../lifecycle.ts';
import { AppError } from './errors.ts';

export const STOPPING_MESSAGE = 'Le serveur redémarre : réessayez dans quelques instants.';
/** Seconds before sending again: another process (or this one restarted) answers by then. */
export const STOPPING_RETRY_AFTER_SECONDS = 1;

/**
 * Once the server is stopping (ctx.lifecycle), a request that arrives anyway (on a kept-alive
 * connection, or in the instant before the listener closed) gets a 503 in the API's own format
 * (the connector's `unavailable`, with Retry-After) instead of fastify's English one; the probes
 * still answer (/readyz says « arrêt en cours »). Its connection closes (app.ts).
 */
export function refuseWhileStopping(app: FastifyInstance, lifecycle: Lifecycle): void {
  // A callback hook, not an async one: it runs on every request.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!lifecycle.stopping) return done();
    const route = request.routeOptions.url;
    if (route === '/healthz' || route === '/readyz') return done();
    done(
      new AppError(503, STOPPING_MESSAGE, 'SERVER_STOPPING', {
        'Retry-After': String(STOPPING_RETRY_AFTER_SECONDS),
      }),
    );
  });
}
