import type { FastifyServerOptions } from 'fastify';

const SECRET_QUERY_PARAMS = /([?&](?:clientId|password|token)=)[^&]*/gi;

/** A URL as logged: values of secret query parameters (the login link's clientId) removed. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_PARAMS, '$1[masqué]');
}

/**
 * pino through fastify. Request logs carry method, URL (secrets removed) and address only;
 * the redact paths are a safety net for anything logged with an object.
 */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        'headers.cookie',
        'headers.authorization',
        'password',
        'clientId',
        'ConfigConnecteur',
        'connectorToken',
        '*.password',
        '*.clientId',
        '*.ConfigConnecteur',
        '*.connectorToken',
      ],
      censor: '[masqué]',
    },
    serializers: {
      req(request: { method: string; url: string; ip?: string; socket?: { remoteAddress?: string } }) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          remoteAddress: request.ip ?? request.socket?.remoteAddress,
        };
      },
    },
  } as FastifyServerOptions['logger'];
}
