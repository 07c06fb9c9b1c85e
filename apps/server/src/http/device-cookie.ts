import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEVICE_COOKIE_LIFETIME_MS } from '../security/device-cookie.ts';
import { overHttps } from './security.ts';

/**
 * The device cookie of an installation (security/device-cookie.ts): one per sync id, so that a
 * browser signing in to several installations (an integrator's) is a known device of each.
 * `__Host-synchro_device_<ID>` over HTTPS (Secure, `Path=/`, no `Domain`: nothing else can set or
 * shadow it), `synchro_device_<ID>` over HTTP; only the name that applies is read, as for the
 * session cookie. HttpOnly, SameSite=Strict: only the sign-in, a same-origin POST, needs it.
 */
export function deviceCookieName(request: FastifyRequest, syncId: string): string {
  return `${overHttps(request) ? '__Host-' : ''}synchro_device_${syncId}`;
}

export function readDeviceCookie(request: FastifyRequest, syncId: string): string | undefined {
  return request.cookies[deviceCookieName(request, syncId)];
}

export function setDeviceCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  syncId: string,
  value: string,
): void {
  void reply.setCookie(deviceCookieName(request, syncId), value, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure: overHttps(request),
    maxAge: DEVICE_COOKIE_LIFETIME_MS / 1000,
  });
}
