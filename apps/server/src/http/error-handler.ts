import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from './errors.ts';

// French messages for the errors fastify itself raises before a route runs.
const FASTIFY_MESSAGES: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    message:
      'Type de contenu non pris en charge : les requêtes doivent être envoyées en JSON (application/json).',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'Le corps JSON de la requête est vide.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: "Le corps de la requête n'est pas un JSON valide." },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'Le corps de la requête est trop volumineux.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'En-tête Content-Length invalide.' },
};

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, 'erreur serveur');
      for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
      return reply
        .status(error.status)
        .send(error.code ? { message: error.message, code: error.code } : { message: error.message });
    }
    const known = error.code ? FASTIFY_MESSAGES[error.code] : undefined;
    if (known) return reply.status(known.status).send({ message: known.message, code: error.code });
    if (error.code === 'FST_ERR_BAD_STATUS_CODE' || !error.statusCode || error.statusCode >= 500) {
      request.log.error({ err: error }, 'erreur serveur');
      return reply
        .status(500)
        .send({ message: 'Erreur interne du serveur. Réessayez plus tard.', code: 'INTERNAL' });
    }
    if (error.statusCode === 400 && error.code === 'FST_ERR_VALIDATION') {
      return reply.status(400).send({ message: 'Requête invalide.', code: 'VALIDATION' });
    }
    request.log.warn({ err: error }, 'requête refusée');
    return reply.status(error.statusCode).send({ message: 'Requête refusée.', code: error.code });
  });
}
