import { REVALIDATE } from './representations.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isConnectorRequest } from './connector-api.ts';
import { AppError } from './errors.ts';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

// 'unsafe-inline' styles: UI libraries position popovers with inline style attributes.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export interface SecurityOptions {
  /** Origins besides the server's own that may send mutating requests (e.g. a dev server). */
  allowedOrigins: readonly string[];
}

function ownOrigin(request: FastifyRequest): string {
  // With trustProxy, protocol and host come from X-Forwarded-Proto / X-Forwarded-Host.
  return `${request.protocol}://${request.host}`;
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** The origin a browser says the request comes from, or undefined when it says nothing. */
function claimedOrigin(request: FastifyRequest): string | null | undefined {
  const origin = request.headers.origin;
  if (typeof origin === 'string') return origin === 'null' ? null : originOf(origin);
  const referer = request.headers.referer;
  if (typeof referer === 'string') return originOf(referer);
  return undefined;
}

const CROSS_ORIGIN_MESSAGE = "Requête refusée : elle ne provient pas de l'origine de la console.";

function assertSameOrigin(request: FastifyRequest, allowed: ReadonlySet<string>): void {
  if (request.headers['sec-fetch-site'] === 'cross-site')
    throw new AppError(403, CROSS_ORIGIN_MESSAGE, 'CROSS_ORIGIN');
  const claimed = claimedOrigin(request);
  if (
    claimed !== undefined &&
    claimed !== ownOrigin(request) &&
    !(claimed !== null && allowed.has(claimed))
  ) {
    throw new AppError(403, CROSS_ORIGIN_MESSAGE, 'CROSS_ORIGIN');
  }
}

/** True when the request says a body follows (a length above 0, or a chunked body). */
export const declaresBody = (request: FastifyRequest): boolean =>
  Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;

/** True when the request reached the server over HTTPS (directly, or said so by a trusted proxy). */
export const overHttps = (request: FastifyRequest): boolean => request.protocol === 'https';

const HSTS = 'max-age=31536000';

/**
 * Cross-site request forgery defence: every mutating request, whatever its path (the router
 * decodes `%61pi` into `api` and a raw-URL test would let it through), must come from the
 * console's own origin and carry JSON (an HTML form cannot send application/json). The connector
 * API (bearer token, its route's `connectorApi` flag) skips the origin check only.
 */
export function installRequestGuards(app: FastifyInstance, options: SecurityOptions): void {
  const allowed = new Set(
    options.allowedOrigins.map((o) => originOf(o)).filter((o): o is string => o !== null),
  );
  // Callback hooks, not async ones: they run on every request (a thrown AppError still reaches
  // the error handler: fastify catches what a hook throws).
  app.addHook('onRequest', (request, _reply, done) => {
    if (!MUTATING.has(request.method)) return done();
    // The connector API authenticates with a bearer token, never a cookie: no browser, no origin.
    if (!isConnectorRequest(request)) assertSameOrigin(request, allowed);
    const contentType = request.headers['content-type'];
    const hasBody = declaresBody(request);
    const isJson = typeof contentType === 'string' && /^application\/json\s*(;|$)/i.test(contentType);
    if ((contentType !== undefined || hasBody) && !isJson) {
      throw new AppError(
        415,
        'Type de contenu non pris en charge : les requêtes doivent être envoyées en JSON (application/json).',
        'UNSUPPORTED_MEDIA_TYPE',
      );
    }
    done();
  });
  app.addHook('onSend', (request, reply, _payload, done) => {
    void reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    void reply.header('X-Content-Type-Options', 'nosniff');
    void reply.header('X-Frame-Options', 'DENY');
    void reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    void reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    if (overHttps(request)) void reply.header('Strict-Transport-Security', HSTS);
    // Decided on the route matched, not the raw URL: an API route is never stored whatever the
    // encoding of its path; any other answer that does not say how to cache it (an error, a 404)
    // is not stored either. Only the SPA's files set their own policy.
    // The one exception: the stored representations (http/representations.ts) are kept by the
    // browser and revalidated with their ETag, never shared (`private, no-cache`).
    const own = reply.getHeader('cache-control');
    if (own !== REVALIDATE && (own === undefined || request.routeOptions.url?.startsWith('/api/') === true))
      void reply.header('Cache-Control', 'no-store');
    done();
  });
}
