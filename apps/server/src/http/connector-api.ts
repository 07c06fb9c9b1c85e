import { CONNECTOR_ERROR_CODES, type TConnectorError, type TConnectorErrorCode } from '@synchro/contracts';
import type { FastifyRequest } from 'fastify';

/**
 * What the HTTP layer knows of the connector API (docs/connector-api.md): its routes are marked
 * `config: { connectorApi: true }`, answer errors as `{ error, message }` (TConnectorError), and
 * skip the browser guards (no cookie, no origin: no browser is involved).
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route of the connector API (bearer token, `{error, message}` errors). */
    connectorApi?: boolean;
  }
}

export const CONNECTOR_API_PREFIX = '/api/connector/';

/** True for a request routed to the connector API, or an unknown path under its prefix. */
export function isConnectorRequest(request: FastifyRequest): boolean {
  if (request.routeOptions.config?.connectorApi === true) return true;
  return request.routeOptions.url === undefined && request.url.startsWith(CONNECTOR_API_PREFIX);
}

const CODE_OF_STATUS = new Map<number, TConnectorErrorCode>(
  (Object.entries(CONNECTOR_ERROR_CODES) as [TConnectorErrorCode, number][])
    // Codes that share their status with a more general one are only ever given by name.
    .filter(([code]) => code !== 'address-refused' && code !== 'server-busy')
    .map(([code, status]) => [status, code]),
);

/**
 * The error body of a connector route: the AppError's own code when it is one of the API's
 * (kebab-case), else the code of its status.
 */
export function connectorErrorBody(status: number, message: string, code?: string): TConnectorError {
  const error =
    code !== undefined && code in CONNECTOR_ERROR_CODES
      ? code
      : (CODE_OF_STATUS.get(status) ?? (status >= 500 ? 'internal-error' : 'invalid-request'));
  return { error, message };
}

const nf = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 });

/** A byte count as a French reader writes it: 16 Ko, 64 Mo. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${nf.format(bytes / (1024 * 1024))} Mo`;
  if (bytes >= 1024) return `${nf.format(bytes / 1024)} Ko`;
  return `${nf.format(bytes)} octets`;
}
