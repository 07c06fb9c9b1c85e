import type { FastifyServerOptions } from 'fastify';

const MASK = '[masqué]';

/**
 * Names of query parameters that may carry a secret, matched in the name as the query parser reads
 * it (percent-decoded, any case, without `_`, `-`, brackets…): `clientId` (the demo's login link),
 * `access_token`, `refresh_token`, `api_key`, `X-Api-Key`, `sessionId`, `client_secret`, `pwd`,
 * `mdp`, an OAuth `code`, a `signature`… Masking an innocent one costs nothing.
 */
const SECRET_NAME =
  /token|pass|pwd|secret|clientid|key|auth|session|^sid$|sig|credential|mdp|cookie|jwt|bearer|otp|^code$/;
/** Our own tokens' shape (32 random bytes, base64url: sessions, connector), whatever its name. */
const TOKEN_VALUE = /^[A-Za-z0-9_-]{43}$/;

function decodedName(raw: string): string {
  let name = raw.replace(/\+/g, ' ');
  try {
    name = decodeURIComponent(name);
  } catch {
    // a bad percent-encoding stays as written
  }
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function redactPair(pair: string): string {
  const at = pair.indexOf('=');
  if (at < 0) return TOKEN_VALUE.test(pair) ? MASK : pair;
  const value = pair.slice(at + 1);
  if (value === '' || !(SECRET_NAME.test(decodedName(pair.slice(0, at))) || TOKEN_VALUE.test(value)))
    return pair;
  return `${pair.slice(0, at + 1)}${MASK}`;
}

/**
 * A URL as logged: the values of query parameters that may carry a secret replaced by
 * « [masqué] ». Pairs are cut at `&` and at `;` (some parsers take both).
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  return `${url.slice(0, q + 1)}${url
    .slice(q + 1)
    .split(/([&;])/)
    .map((part) => (part === '&' || part === ';' ? part : redactPair(part)))
    .join('')}`;
}

/** Property names whose values never reach a log, on the logged object or on any object in it. */
const SECRET_KEYS = ['password', 'clientId', 'ConfigConnecteur', 'connectorToken'] as const;

const hasSecret = (value: object): boolean => SECRET_KEYS.some((key) => Object.hasOwn(value, key));

/** A copy of `value` (same prototype, every own property, an error's message and stack too) with its secrets masked. */
function masked<T extends object>(value: T): T {
  const copy = Object.defineProperties(
    Object.create(Object.getPrototypeOf(value) as object | null) as T,
    Object.getOwnPropertyDescriptors(value),
  ) as Record<string, unknown>;
  for (const key of SECRET_KEYS) if (Object.hasOwn(copy, key)) copy[key] = MASK;
  return copy as T;
}

/**
 * The object of a log line with SECRET_KEYS masked on it and on each object it holds (one level
 * down: what pino's `*.password` paths did). The object is copied only where a secret is found,
 * so the request line, which holds none, costs a few property checks: pino's own redaction of
 * wildcard paths cost ~12 µs per line (bench/README.md, Compression, 2026-11-27).
 */
export function maskSecrets(object: Record<string, unknown>): Record<string, unknown> {
  let out = object;
  if (hasSecret(out)) out = masked(out);
  for (const key in out) {
    if (!Object.hasOwn(out, key)) continue;
    const value = out[key];
    if (typeof value !== 'object' || value === null || !hasSecret(value)) continue;
    if (out === object) out = masked(object);
    out[key] = masked(value);
  }
  return out;
}

/**
 * pino through fastify. Request logs carry method, URL (secrets removed) and address only; the
 * secrets a logged object might hold are masked as a safety net: by pino's redact paths the
 * headers' cookies and authorization, and the SECRET_KEYS at the top of a line or of a child
 * logger's bindings (fastify binds only `reqId`); by maskSecrets (pino's `formatters.log`) the
 * SECRET_KEYS of any object the line holds. Pino's wildcard paths (`*.password`) did the latter
 * for ~12 µs per line, more than everything else the request line costs.
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
        ...SECRET_KEYS,
      ],
      censor: MASK,
    },
    formatters: { log: maskSecrets },
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
