import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_ABSOLUTE_MS } from '../domain/sessions.ts';

export const SESSION_COOKIE = 'synchro_session';

export function readSessionToken(request: FastifyRequest): string | undefined {
  const value = request.cookies[SESSION_COOKIE];
  return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
}

// Secure whenever the browser reached us over HTTPS, directly or through a trusted proxy.
const cookieOptions = (request: FastifyRequest) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  path: '/',
  secure: request.protocol === 'https',
});

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  void reply.setCookie(SESSION_COOKIE, token, {
    ...cookieOptions(request),
    maxAge: SESSION_ABSOLUTE_MS / 1000,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
}
