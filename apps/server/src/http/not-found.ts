import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONNECTOR_API_PREFIX, connectorErrorBody } from './connector-api.ts';

const SHOWN_PATH_MAX = 200;

/** 404 « Ressource introuvable » in the shape of the API the path belongs to. */
export function sendNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split('?')[0] ?? '';
  const shown = path.length > SHOWN_PATH_MAX ? `${path.slice(0, SHOWN_PATH_MAX)}…` : path;
  const message = `Ressource introuvable : ${request.method} ${shown}`;
  void reply.header('Cache-Control', 'no-store');
  if (request.url.startsWith(CONNECTOR_API_PREFIX))
    return reply.status(404).send(connectorErrorBody(404, message, 'not-found'));
  return reply.status(404).send({ message, code: 'NOT_FOUND' });
}

/**
 * fastify's router errors, raised before any route or hook: a path with a bad percent-encoding
 * (FST_ERR_BAD_URL, an English 400) or a parameter over maxParamLength (an English 414). Neither
 * can name a resource: the same French 404 as an unknown id.
 */
export function routerErrors(error: { code?: string }, request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void sendNotFound(request, reply);
    return;
  }
  request.log.error({ err: error }, 'erreur du routeur');
  void reply
    .status(500)
    .header('Cache-Control', 'no-store')
    .send({ message: 'Erreur interne du serveur. Réessayez plus tard.', code: 'INTERNAL' });
}
