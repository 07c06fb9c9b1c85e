import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';

/** The body of an injected answer as sent before compression (brotli, gzip or none). */
export function decoded(res: LightMyRequestResponse): Buffer {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload);
  if (encoding === 'gzip') return gunzipSync(res.rawPayload);
  if (encoding === undefined) return res.rawPayload;
  throw new Error(`unexpected encoding ${String(encoding)}`);
}

/** Whether the answer's `Vary` names `header` (any case, among others). */
export const variesOn = (res: { headers: Record<string, unknown> }, header: string): boolean =>
  String(res.headers.vary ?? '')
    .toLowerCase()
    .split(/\s*,\s*/)
    .includes(header.toLowerCase());

/** Whether the answer says it depends on Accept-Encoding. */
export const varies = (res: { headers: Record<string, unknown> }): boolean =>
  variesOn(res, 'accept-encoding');
