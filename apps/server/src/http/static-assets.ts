import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { IMMUTABLE } from '../static/spa.ts';
import { preferredEncoding } from './representations.ts';

/** Types of the build's files kept in memory; any other file is left to @fastify/static. */
const ASSET_TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};

/** The build's /assets/ are kept in memory up to this many bytes (1.8 MB with .br and .gz today). */
const ASSETS_IN_MEMORY_BYTES = 32 * 1024 * 1024;

interface MemoryAsset {
  type: string;
  tag: string;
  identity: Buffer;
  br: Buffer | undefined;
  gzip: Buffer | undefined;
}

/**
 * The hashed files under /assets/ (never change under their name) read once at start with their
 * `.br` and `.gz`, and sent from memory: reading them from disk for every request cost more than
 * sending them (bench/README.md, Compression). Same answers as @fastify/static's (the encoding
 * Accept-Encoding prefers, `Vary`, a year of cache, an ETag per encoding, 304); a file that
 * appeared after the start (a new build) is left to @fastify/static.
 */
export function serveAssetsFromMemory(app: FastifyInstance, dir: string): void {
  const root = join(dir, 'assets');
  const files = new Map<string, MemoryAsset>();
  let total = 0;
  const names = existsSync(root) ? readdirSync(root, { recursive: true, encoding: 'utf8' }) : [];
  for (const name of names) {
    const type = ASSET_TYPES[extname(name)];
    const path = join(root, name);
    if (!type || name.split(sep).some((part) => part.startsWith('.')) || !statSync(path).isFile()) continue;
    const identity = readFileSync(path);
    const sibling = (suffix: string) => (existsSync(path + suffix) ? readFileSync(path + suffix) : undefined);
    const asset = { type, identity, br: sibling('.br'), gzip: sibling('.gz') };
    const size = identity.length + (asset.br?.length ?? 0) + (asset.gzip?.length ?? 0);
    if (total + size > ASSETS_IN_MEMORY_BYTES) break;
    total += size;
    const tag = createHash('sha256').update(identity).digest('base64url').slice(0, 22);
    files.set(`/assets/${relative(root, path).split(sep).join('/')}`, { ...asset, tag });
  }
  app.get('/assets/*', async (request, reply) => {
    const asset = files.get(request.url.split('?')[0] ?? '');
    if (!asset) return reply.sendFile(`assets/${(request.params as { '*': string })['*']}`);
    const wanted = preferredEncoding(request.headers['accept-encoding']);
    const encoding =
      wanted === 'br' && !asset.br
        ? asset.gzip
          ? 'gzip'
          : null
        : wanted === 'gzip' && !asset.gzip
          ? null
          : wanted;
    const etag = `"${asset.tag}${encoding ? `-${encoding}` : ''}"`;
    void reply.header('Cache-Control', IMMUTABLE).header('Vary', 'Accept-Encoding').header('ETag', etag);
    const inm = request.headers['if-none-match'];
    if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag))
      return reply.code(304).send();
    void reply.type(asset.type);
    if (!encoding) return reply.send(asset.identity);
    return reply.header('Content-Encoding', encoding).send(encoding === 'br' ? asset.br : asset.gzip);
  });
}
