import { CONFIG_SECTIONS } from '@synchro/contracts';
import type { FastifyInstance, RouteOptions } from 'fastify';

const KB = 1024;
const MB = 1024 * 1024;

/**
 * Largest request bodies (a 413 beyond, docs/security.md « Request bodies »). Fastify refuses a
 * larger `Content-Length` before reading any byte, and stops reading a chunked body at the limit.
 */
export const BODY_LIMITS = {
  /** Every console route that does not say otherwise (the settings saves weigh a few KB). */
  default: 1 * MB,
  /** `/api/login` and `/api/logout`: anonymous, `{username, password}` at most. */
  anonymous: 4 * KB,
  /**
   * The exclusions save carries the whole list of families (up to 100 000, the schema's
   * maximum, about 75 bytes each in JSON).
   */
  exclusions: 8 * MB,
} as const;

const EXCLUSIONS_SAVE = CONFIG_SECTIONS.exclusions.save.path;

/**
 * Gives the exclusions save its larger limit. The other routes that need one say it themselves
 * (record XML PUT, the connector API); every other route keeps fastify's default (BODY_LIMITS.default).
 */
export function installBodyLimits(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.bodyLimit === undefined && route.url === EXCLUSIONS_SAVE)
      route.bodyLimit = BODY_LIMITS.exclusions;
  });
}
