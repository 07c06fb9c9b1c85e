import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/**
 * The stored encoded representations (http/representations.ts sends them): one entry per
 * installation and route, holding the encodings of the bytes its ETag names, within a byte budget
 * with a share per installation (docs/server.md, Compression and Fair share).
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
