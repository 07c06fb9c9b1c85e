import type { FastifyInstance } from 'fastify';
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
 * body is parsed in a worker thread, not here): the bytes, untouched.
 */
export function installRawJsonBodies(scope: FastifyInstance): void {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, body);
  });
}
