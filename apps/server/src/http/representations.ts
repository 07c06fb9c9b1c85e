import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { COMPRESSION_THRESHOLD } from './compression.ts';
import { type Encoding, type RepresentationStore } from '../domain/representation-store.ts';

export {
  brotliQuality,
  encode,
  RepresentationStore,
  DEFAULT_REPRESENTATION_BUDGET,
  type Encoding,
  type RepresentationBudget,
} from '../domain/representation-store.ts';

/**
 * Encoded representations of the answers that repeat (GET /api/user, the configuration section
 * reads, /api/dashboard while it does not change): each one is compressed once per content and
 * kept, then sent as bytes, with an `ETag` and a `304` for a browser that already has it
 * (docs/server.md, Stored representations).
 *
 * - Key: installation (`scope`) + route (`slot`); the entry holds the ETag of the content it
 *   encodes, so a new content (a save makes a new configuration version, hence new bytes) replaces
 *   the entry of its slot: nothing stale is ever sent, and nothing of one installation is ever
 *   found under another's key (the ETag itself hashes the installation with the bytes).
 * - Memory: a byte budget for all, and a share per installation (Fair share): an installation past
 *   its share evicts its own least recently used entries, never the others'; past the budget, the
 *   least recently used entry of all goes.
 * - Compression runs on libuv's threads (zlib's async calls), never on the request thread;
 *   requests arriving while it runs wait for the same result.
 */

/** The encoding a request's Accept-Encoding prefers among br and gzip (br on a tie); null: none. */
export function preferredEncoding(header: string | string[] | undefined): Encoding | null {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return null;
  let br = -1;
  let gz = -1;
  let star = -1;
  for (const part of value.slice(0, 1024).split(',')) {
    const [name = '', ...params] = part.split(';');
    let q = 1;
    for (const param of params) {
      const [k, v] = param.split('=');
      if (k?.trim().toLowerCase() === 'q') q = Number(v?.trim());
    }
    if (!Number.isFinite(q) || q < 0 || q > 1) continue;
    const coding = name.trim().toLowerCase();
    if (coding === 'br') br = q;
    else if (coding === 'gzip' || coding === 'x-gzip') gz = q;
    else if (coding === '*') star = q;
  }
  if (br < 0) br = star;
  if (gz < 0) gz = star;
  if (br <= 0 && gz <= 0) return null;
  return br >= gz ? 'br' : 'gzip';
}

const etags = new WeakMap<Buffer, { scope: string; etag: string }>();

/**
 * The entity tag of `body` for `scope`: a hash of both (two installations never share a tag, so a
 * browser that switches installation never gets a 304 for the other's answer). Computed once per
 * Buffer object: answers built once per configuration version (userBody, the section views) hash
 * their bytes once.
 */
export function entityTag(scope: string, body: Buffer, prefix = ''): string {
  const known = etags.get(body);
  if (known && known.scope === scope && known.etag.startsWith(prefix)) return known.etag;
  const hash = createHash('sha256')
    .update(scope)
    .update('\u0000')
    .update(body)
    .digest('base64url')
    .slice(0, 22);
  const etag = `${prefix}${hash}`;
  etags.set(body, { scope, etag });
  return etag;
}

/** The tags of an If-None-Match header, without `W/`, quotes and encoding suffixes. */
function matches(header: string | string[] | undefined, etag: string): boolean {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return false;
  return value
    .slice(0, 4096)
    .split(',')
    .some((tag) => {
      const bare = tag.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
      return bare === '*' || bare === etag || bare === `${etag}-br` || bare === `${etag}-gzip`;
    });
}

/**
 * Route options of the routes that answer with sendRepresentation: their answers carry their own
 * encoding, so @fastify/compress (http/compression.ts) has nothing to do there and its two hooks
 * are left out of their requests.
 */
export const ENCODES_ITSELF = { compress: false } as const;

/** Per session: the browser may keep it but asks every time (a 304 when unchanged). */
export const REVALIDATE = 'private, no-cache';

export interface Representation {
  /** The installation the answer belongs to (the key's first part). */
  scope: string;
  /** The route (and whatever else, besides the bytes, tells its answers apart). */
  slot: string;
  body: Buffer;
  contentType: string;
  /** Put before the hash in the ETag (the section reads put their version: `"12-…"`). */
  etagPrefix?: string;
}

/**
 * Sends a repeated answer: 304 when If-None-Match names it, else the stored encoding the client
 * prefers (computed once), with `ETag` (`"<tag>"`, `"<tag>-br"`, `"<tag>-gzip"`: each encoding has
 * its own), `Vary: Accept-Encoding` and `Cache-Control: private, no-cache`.
 */
export async function sendRepresentation(
  store: RepresentationStore,
  request: FastifyRequest,
  reply: FastifyReply,
  rep: Representation,
): Promise<FastifyReply> {
  const etag = entityTag(rep.scope, rep.body, rep.etagPrefix);
  void reply.header('Vary', 'Accept-Encoding').header('Cache-Control', REVALIDATE);
  if (matches(request.headers['if-none-match'], etag)) {
    return reply.code(304).header('ETag', `"${etag}"`).send();
  }
  const encoding =
    rep.body.length >= COMPRESSION_THRESHOLD ? preferredEncoding(request.headers['accept-encoding']) : null;
  void reply.type(rep.contentType);
  if (!encoding) return reply.header('ETag', `"${etag}"`).send(rep.body);
  const bytes = await store.encoded(rep.scope, rep.slot, etag, rep.body, encoding);
  return reply.header('ETag', `"${etag}-${encoding}"`).header('Content-Encoding', encoding).send(bytes);
}
