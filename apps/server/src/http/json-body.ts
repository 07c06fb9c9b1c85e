import { errorCodes, type FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { AppError } from './errors.ts';

export const INVALID_UTF8_MESSAGE = "Le corps de la requête n'est pas un texte UTF-8 valide.";
export const INVALID_JSON_MESSAGE = "Le corps de la requête n'est pas un JSON valide.";

// fatal: bytes that are not UTF-8 are refused instead of being stored as U+FFFD.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A JSON body as bytes → its value: strict UTF-8, then JSON without `__proto__` nor
 * `constructor.prototype` keys (the checks of fastify's own parser); an empty body is no body
 * (undefined). Pure, so that a worker thread can read a big body (offload/pool.ts).
 */
export function parseJsonBytes(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new AppError(400, INVALID_UTF8_MESSAGE, 'INVALID_UTF8');
  }
  if (text === '') return undefined;
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    throw new AppError(400, INVALID_JSON_MESSAGE, 'FST_ERR_CTP_INVALID_JSON_BODY');
  }
}

/**
 * The only body parser: JSON in strict UTF-8. text/plain (a "simple" cross-site request) and forms
 * have none, so they never reach a route. An empty body is no body (a POST without body may still
 * say application/json: logout from a generic client).
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(null, parseJsonBytes(body as Buffer));
    } catch (err) {
      done(err as AppError, undefined);
    }
  });
}

/**
 * The JSON parser of a scope whose routes read their bodies themselves (the connector API: a big
 * body is parsed in a worker thread, not here): the bytes, untouched. They are copied into one
 * buffer as they arrive (its size known from Content-Length), never concatenated at the end: the
 * concatenation of an 80 MB body held the event loop for 80 ms (bench/noisy-neighbour).
 */
export function installRawJsonBodies(scope: FastifyInstance): void {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', (request, payload, done) => {
    readBodyBytes(payload, request.routeOptions.bodyLimit ?? 0, request.headers['content-length'], done);
  });
}

/** Reads a request body within `limit` bytes, with fastify's own errors (413, bad length). */
export function readBodyBytes(
  payload: NodeJS.ReadableStream,
  limit: number,
  contentLength: string | undefined,
  done: (err: Error | null, body?: Buffer) => void,
): void {
  const declared = contentLength === undefined ? NaN : Number(contentLength);
  if (declared > limit) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  const known = Number.isInteger(declared) && declared >= 0;
  const whole = known ? Buffer.allocUnsafe(declared) : null;
  const chunks: Buffer[] = [];
  let received = 0;
  let finished = false;
  const finish = (err: Error | null, body?: Buffer) => {
    if (finished) return;
    finished = true;
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onError);
    if (err) payload.resume();
    done(err, body);
  };
  const onData = (chunk: Buffer) => {
    if (received + chunk.length > (known ? declared : limit)) {
      return finish(
        known
          ? new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH()
          : new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(),
      );
    }
    if (whole) chunk.copy(whole, received);
    else chunks.push(chunk);
    received += chunk.length;
  };
  const onEnd = () => {
    if (known && received !== declared) return finish(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
    finish(null, whole ?? Buffer.concat(chunks, received));
  };
  const onError = (err: Error) => finish(err);
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
}
