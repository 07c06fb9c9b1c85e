import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { connectorErrorBody, formatBytes, isConnectorRequest } from './connector-api.ts';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE_CODE,
  DATABASE_UNAVAILABLE_MESSAGE,
  isDatabaseUnavailable,
} from '../db/unavailable.ts';
import { AppError } from './errors.ts';
import { declaresBody } from './security.ts';

// French messages for the errors fastify itself raises before a route runs.
const FASTIFY_MESSAGES: Record<string, { status: number; message: string; code?: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    message:
      'Type de contenu non pris en charge : les requêtes doivent être envoyées en JSON (application/json).',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'Le corps JSON de la requête est vide.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: "Le corps de la requête n'est pas un JSON valide." },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    message: 'Le corps de la requête est trop volumineux.',
    code: 'BODY_TOO_LARGE',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'En-tête Content-Length invalide.' },
};

const sentCodes = new WeakMap<FastifyRequest, string>();

/** The code of the error a request was answered with (the metrics' reason), if any. */
export function errorCodeOf(request: FastifyRequest): string | undefined {
  return sentCodes.get(request);
}

/**
 * Sends an error: `{message, code?}` on the console API, `{error, message}` on the connector API
 * (docs/connector-api.md).
 */
function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  message: string,
  code?: string,
): FastifyReply {
  // Refused before its body was read (no session, too large, wrong type): the connection is
  // closed after the answer instead of reading (and discarding) the rest of the body. A sender
  // that is known and only told to come back (503 budget, 507 quota) keeps its connection: its
  // body, within the route's limit, is read and discarded, so that it reads the answer instead of
  // a broken pipe while it is still writing.
  if (declaresBody(request) && !request.raw.readableEnded && !isDrainableRefusal(request, status))
    void reply.header('Connection', 'close');
  const body = connectorErrorBody(status, message, code);
  sentCodes.set(request, isConnectorRequest(request) ? body.error : (code ?? String(status)));
  if (isConnectorRequest(request)) return reply.status(status).send(body);
  return reply.status(status).send(code ? { message, code } : { message });
}

function isDrainableRefusal(request: FastifyRequest, status: number): boolean {
  if (status !== 503 && status !== 507) return false;
  const declared = Number(request.headers['content-length']);
  const limit = request.routeOptions.bodyLimit ?? 0;
  return Number.isFinite(declared) && declared > 0 && declared <= limit;
}

/** The 413 message, with the route's limit; on a connector route, what to do about it. */
function bodyTooLargeMessage(request: FastifyRequest, fallback: string): string {
  const limit = request.routeOptions.bodyLimit;
  if (!limit) return fallback;
  if (!isConnectorRequest(request))
    return `Le corps de la requête dépasse la limite de ${formatBytes(limit)} de cette route.`;
  return `Le corps de la requête dépasse la limite de ${formatBytes(limit)} de cette route : envoyez moins d’éléments par requête.`;
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      // 503 and 507 are refusals the sender is told how to get past (budget, quota), not faults.
      if (error.status === 503 || error.status === 507)
        request.log.info({ code: error.code, status: error.status }, 'requête différée');
      else if (error.status >= 500) request.log.error({ err: error }, 'erreur serveur');
      for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
      return sendError(request, reply, error.status, error.message, error.code);
    }
    const known = error.code ? FASTIFY_MESSAGES[error.code] : undefined;
    if (known) {
      const message =
        error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? bodyTooLargeMessage(request, known.message)
          : known.message;
      return sendError(request, reply, known.status, message, known.code ?? error.code);
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'base de données indisponible');
      void reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return sendError(request, reply, 503, DATABASE_UNAVAILABLE_MESSAGE, DATABASE_UNAVAILABLE_CODE);
    }
    if (error.code === 'FST_ERR_BAD_STATUS_CODE' || !error.statusCode || error.statusCode >= 500) {
      request.log.error({ err: error }, 'erreur serveur');
      return sendError(request, reply, 500, 'Erreur interne du serveur. Réessayez plus tard.', 'INTERNAL');
    }
    if (error.statusCode === 400 && error.code === 'FST_ERR_VALIDATION') {
      return sendError(request, reply, 400, 'Requête invalide.', 'VALIDATION');
    }
    request.log.warn({ err: error }, 'requête refusée');
    return sendError(request, reply, error.statusCode, 'Requête refusée.', error.code);
  });
}
