import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** True when `dir` holds a built SPA. */
export function hasBuiltSpa(dir: string | null | undefined): dir is string {
  return Boolean(dir) && existsSync(join(dir as string, 'index.html'));
}

/**
 * Serves the built SPA: hashed files under /assets/ are cached for a year, everything else
 * (index.html first) is revalidated on every load so that a new build shows at once.
 * The build writes `.br` and `.gz` beside each text file (apps/web/vite.config.ts): the one the
 * client's Accept-Encoding prefers is sent as it is, with the original's Content-Type and
 * `Vary: Accept-Encoding`. Dotfiles (`.env`, `.git/`…) are never served.
 */
export async function serveSpa(app: FastifyInstance, dir: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: dir,
    cacheControl: false,
    preCompressed: true,
    dotfiles: 'ignore',
    setHeaders(reply, path) {
      void reply.header('Cache-Control', path.startsWith(join(dir, 'assets')) ? IMMUTABLE : 'no-cache');
    },
  });
}

const DOT_SEGMENT = /\/\./;

/** The path of a URL, percent-decoded (`/%2eenv` is `/.env`); undecodable stays as sent. */
function decodedPath(url: string): string {
  const path = url.split('?')[0] ?? '';
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * Whether an unknown URL gets index.html (the SPA routes it): GET or HEAD of a page, never an API
 * path, a path with a dot segment (a dotfile must not come back as a page) or a missing build file
 * under /assets/ (a stale chunk fails as a 404, not as HTML).
 */
export function isSpaPage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = decodedPath(request.url);
  return (
    path !== '/api' && !path.startsWith('/api/') && !path.startsWith('/assets/') && !DOT_SEGMENT.test(path)
  );
}

/** Built beside index.html by apps/web/vite.config.ts (signedInPage). */
export const SIGNED_IN_PAGE = 'index-signed-in.html';
/** The pages a signed-in visitor lands on with Général: `/`, and `/auth` that sends them there. */
const GENERAL_PATHS = new Set(['/', '/auth']);

/**
 * The HTML of a page of the SPA: a visit of / or /auth with a session cookie gets the page that
 * preloads the signed-in layout, Général and its data with the entry (docs/web.md, Delivery); any
 * other visit index.html. The cookie is not checked here: a stale one only costs those downloads.
 */
export function spaPage(dir: string, url: string, hasSessionCookie: boolean): string {
  const signedIn = hasSessionCookie && GENERAL_PATHS.has(decodedPath(url));
  return signedIn && existsSync(join(dir, SIGNED_IN_PAGE)) ? SIGNED_IN_PAGE : 'index.html';
}
