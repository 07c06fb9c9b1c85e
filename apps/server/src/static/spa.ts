import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** True when `dir` holds a built SPA. */
export function hasBuiltSpa(dir: string | null | undefined): dir is string {
  return Boolean(dir) && existsSync(join(dir as string, 'index.html'));
}

/**
 * Serves the built SPA: hashed files under /assets/ are cached for a year, everything else
 * (index.html first) is revalidated on every load so that a new build shows at once.
 */
export async function serveSpa(app: FastifyInstance, dir: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: dir,
    cacheControl: false,
    setHeaders(reply, path) {
      void reply.header('Cache-Control', path.startsWith(join(dir, 'assets')) ? IMMUTABLE : 'no-cache');
    },
  });
}
