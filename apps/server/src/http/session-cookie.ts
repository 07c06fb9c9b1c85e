import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_ABSOLUTE_MS } from '../domain/sessions.ts';
import { overHttps } from './security.ts';

export const SESSION_COOKIE = 'synchro_session';
/**
 * The name over HTTPS: a `__Host-` cookie is accepted by the browser only when Secure, with
 * `Path=/` and no `Domain`, so no sibling host and no plain-HTTP answer can set or shadow it.
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

/** The cookie name of a request: `__Host-synchro_session` over HTTPS, `synchro_session` over HTTP. */
export const sessionCookieName = (request: FastifyRequest): string =>
  overHttps(request) ? SECURE_SESSION_COOKIE : SESSION_COOKIE;

/** Only the name that applies is read: over HTTPS a plain cookie (set by anyone on HTTP) is ignored. */
export function readSessionToken(request: FastifyRequest): string | undefined {
  const value = request.cookies[sessionCookieName(request)];
  return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
}

// Secure whenever the browser reached us over HTTPS, directly or through a trusted proxy.
const cookieOptions = (request: FastifyRequest) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  path: '/',
  secure: overHttps(request),
});

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  void reply.setCookie(sessionCookieName(request), token, {
    ...cookieOptions(request),
    maxAge: SESSION_ABSOLUTE_MS / 1000,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  void reply.clearCookie(sessionCookieName(request), cookieOptions(request));
}
