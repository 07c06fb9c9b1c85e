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
