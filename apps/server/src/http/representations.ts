import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { COMPRESSION_THRESHOLD } from './compression.ts';

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

export type Encoding = 'br' | 'gzip';

/**
 * Chosen by measurement (bench/delivery/compression.ts, bench/README.md « Compression »): each
 * representation is compressed once per content, so the best ratio is worth its time while that
 * time stays short. On the 131 KB /api/user answer brotli 11 is 15 % smaller than quality 4 and
 * takes ~0.4 s of a libuv thread, once per version; it grows with the size (a 5 MB configuration
 * would wait ~15 s), so answers past BROTLI_BEST_MAX_BYTES get quality 6 (~1 ms per 131 KB, 6 %
 * smaller than 4). gzip 9 costs ~1 ms per 131 KB.
 */
export const BROTLI_BEST_MAX_BYTES = 256 * 1024;
export const brotliQuality = (size: number): number => (size <= BROTLI_BEST_MAX_BYTES ? 11 : 6);
export const GZIP_LEVEL = 9;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export async function encode(body: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: brotliQuality(body.length),
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzipAsync(body, { level: GZIP_LEVEL });
}

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

export interface RepresentationBudget {
  /** Bytes of encoded answers kept for all installations. */
  totalBytes: number;
  /** Bytes kept for one installation (its fair share). */
  perInstallationBytes: number;
}

export const DEFAULT_REPRESENTATION_BUDGET: RepresentationBudget = {
  totalBytes: 64 * 1024 * 1024,
  perInstallationBytes: 4 * 1024 * 1024,
};

interface Entry {
  scope: string;
  etag: string;
  encoded: Partial<Record<Encoding, Promise<Buffer>>>;
  bytes: number;
}

/** The stored encoded representations (one per installation and route). */
export class RepresentationStore {
  private readonly entries = new Map<string, Entry>();
  private readonly scopeBytes = new Map<string, number>();
  private total = 0;
  /** How many encodings were computed (tests count them: a repeated answer is not compressed again). */
  compressions = 0;

  constructor(readonly budget: RepresentationBudget = DEFAULT_REPRESENTATION_BUDGET) {}

  get bytes(): number {
    return this.total;
  }

  bytesOf(scope: string): number {
    return this.scopeBytes.get(scope) ?? 0;
  }

  /** The body encoded, from the store or computed once (then kept within the budget). */
  async encoded(
    scope: string,
    slot: string,
    etag: string,
    body: Buffer,
    encoding: Encoding,
  ): Promise<Buffer> {
    const key = `${scope}\u0000${slot}`;
    let entry = this.entries.get(key);
    if (entry && entry.etag !== etag) {
      this.remove(key, entry);
      entry = undefined;
    }
    if (!entry) {
      entry = { scope, etag, encoded: {}, bytes: 0 };
    } else {
      this.entries.delete(key);
    }
    this.entries.set(key, entry);
    const known = entry.encoded[encoding];
    if (known) return known;
    this.compressions += 1;
    const pending = encode(body, encoding);
    entry.encoded[encoding] = pending;
    const target = entry;
    const bytes = await pending.catch((err: unknown) => {
      delete target.encoded[encoding];
      throw err;
    });
    // Still the stored entry (not replaced or evicted meanwhile): account for its bytes.
    if (this.entries.get(key) === target) {
      target.bytes += bytes.length;
      this.total += bytes.length;
      this.scopeBytes.set(scope, this.bytesOf(scope) + bytes.length);
      this.evict(scope);
    }
    return bytes;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.total -= entry.bytes;
    const left = this.bytesOf(entry.scope) - entry.bytes;
    if (left > 0) this.scopeBytes.set(entry.scope, left);
    else this.scopeBytes.delete(entry.scope);
  }

  private evict(scope: string): void {
    // Past its share, an installation loses its own oldest entries (the newest one included when
    // it alone is larger than the share: it is then sent without being kept).
    if (this.bytesOf(scope) > this.budget.perInstallationBytes) {
      for (const [key, entry] of this.entries) {
        if (this.bytesOf(scope) <= this.budget.perInstallationBytes) break;
        if (entry.scope === scope) this.remove(key, entry);
      }
    }
    for (const [key, entry] of this.entries) {
      if (this.total <= this.budget.totalBytes) break;
      this.remove(key, entry);
    }
  }
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
