import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this travel as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD = 1024;

/**
 * Text answers: JSON, XML, CSV, logs, scripts, styles, SVG. Never `text/event-stream` (events
 * must leave at once) nor binary files (PDF, images, archives: already compressed). Types this
 * does not match fall back to mime-db's `compressible` flag (false for application/octet-stream).
 */
const COMPRESSIBLE = /^text\/(?!event-stream)|[/+](?:json|xml)(?:;|$)|javascript|^image\/svg\+xml/;

/**
 * Compresses the answers of every route registered after it (register it before the routes), with
 * brotli or gzip as the client's Accept-Encoding allows, `Vary: Accept-Encoding` added. Brotli at
 * quality 4 and gzip at level 6: about as small as the best levels on JSON, several times faster.
 * Every chunk a stream writes is flushed, so a streamed answer (CSV exports) still leaves batch by
 * batch instead of waiting for the compressor's window to fill. Request bodies are never
 * decompressed (the body limits count bytes as sent). The built SPA is precompressed at build time
 * (static/spa.ts): answers already carrying a Content-Encoding pass through.
 */
export async function installCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    globalCompression: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD,
    customTypes: COMPRESSIBLE,
    brotliOptions: {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 4,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
      flush: constants.BROTLI_OPERATION_FLUSH,
    },
    zlibOptions: { level: 6, flush: constants.Z_SYNC_FLUSH },
  });
}
