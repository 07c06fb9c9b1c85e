import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const IMMUTABLE = 'public, max-age=31536000, immutable';

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
