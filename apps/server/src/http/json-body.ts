import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.ts';

export const INVALID_UTF8_MESSAGE = "Le corps de la requête n'est pas un texte UTF-8 valide.";

// fatal: bytes that are not UTF-8 are refused instead of being stored as U+FFFD.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The only body parser: JSON in strict UTF-8. text/plain (a "simple" cross-site request) and forms
 * have none, so they never reach a route. An empty body is no body (a POST without body may still
 * say application/json: logout from a generic client).
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(new AppError(400, INVALID_UTF8_MESSAGE, 'INVALID_UTF8'), undefined);
      return;
    }
    if (text === '') return done(null, undefined);
    return parseJson(request, text, done);
  });
}
