import { API_PATHS, ZLoginRequest, type TUser } from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { buildUser } from '../../domain/current-user.ts';
import { BODY_LIMITS } from '../../http/body-limits.ts';
import { readDeviceCookie, setDeviceCookie } from '../../http/device-cookie.ts';
import { clearSessionCookie, readSessionToken, setSessionCookie } from '../../http/session-cookie.ts';
import { parseOr400 } from '../../http/validate.ts';
import { login, logout } from './service.ts';

// Anonymous routes: nothing bigger than a sign-in form is ever read.
const anonymous = { bodyLimit: BODY_LIMITS.anonymous };

export function authRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post(API_PATHS.login, anonymous, async (request, reply): Promise<TUser> => {
    const credentials = parseOr400(ZLoginRequest, request.body);
    const { installation, token, deviceCookie } = await login(ctx.db, {
      credentials,
      address: request.ip,
      previousToken: readSessionToken(request),
      deviceCookie: readDeviceCookie(request, credentials.username),
      secret: ctx.sessionSecret,
      now: ctx.now(),
    });
    setSessionCookie(request, reply, token);
    setDeviceCookie(request, reply, installation.syncId, deviceCookie);
    return buildUser(ctx.db, ctx.configs, installation);
  });

  // Public on purpose: ending a session that is already gone still succeeds.
  app.post(API_PATHS.logout, anonymous, async (request, reply) => {
    const token = readSessionToken(request);
    if (token)
      await logout(ctx.db, { token, secret: ctx.sessionSecret, now: ctx.now(), address: request.ip });
    clearSessionCookie(request, reply);
    return { ok: true };
  });
}
