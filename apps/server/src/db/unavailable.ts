/**
 * A database that cannot answer right now (PostgreSQL stopped, restarting, unreachable, out of
 * connections), as opposed to a query that is wrong: the request may succeed if sent again, so
 * the API answers 503 with DATABASE_UNAVAILABLE_MESSAGE instead of a 500 (docs/reliability.md).
 */

export const DATABASE_UNAVAILABLE_MESSAGE =
  'Base de données momentanément indisponible : réessayez dans quelques instants.';
export const DATABASE_UNAVAILABLE_CODE = 'DATABASE_UNAVAILABLE';
/** Seconds a client should wait before sending the request again (Retry-After). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Socket errors of a connection that cannot be made or was cut. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATE: class 08 (connection exception), 57P01-57P03 (shut down by an administrator, after a
 * crash, or not yet accepting connections: starting up, in recovery), 53300 (too many connections).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;

/** node-postgres and pg-pool raise these as plain errors without a code. */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'is not queryable',
];

const FROM_DATABASE = Symbol('synchro.databaseError');

/**
 * Marks an error as raised by the database driver (db/postgres.ts), so that a socket error of
 * something else (an automate, a DNS lookup) is never taken for the database.
 */
export function fromDatabase<E>(err: E): E {
  if (typeof err === 'object' && err !== null && !(FROM_DATABASE in err))
    Object.defineProperty(err, FROM_DATABASE, { value: true });
  return err;
}

/** A database that cannot answer now: an error of the driver (fromDatabase) of the kinds above. */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null || !(FROM_DATABASE in err)) return false;
  return isUnavailableKind(err);
}

function isUnavailableKind(err: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = err;
  // The cause chain: pg-pool wraps the socket error ('Connection terminated due to connection timeout').
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
    if (DRIVER_MESSAGES.some((m) => current instanceof Error && current.message.includes(m))) return true;
    // Node gives an AggregateError (one error per address tried) for a host with several addresses.
    if (current instanceof AggregateError && current.errors.some((e) => isUnavailableKind(e))) return true;
    current = current.cause;
  }
  return false;
}
