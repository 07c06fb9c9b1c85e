import { ZLoginRequest, type TUser } from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import { recordAudit } from '../../audit/audit.ts';
import type { AppContext } from '../../context.ts';
import { parseOr400 } from '../../http/validate.ts';
import { buildUser } from '../user/service.ts';
import { clearSessionCookie, readSessionToken, setSessionCookie } from './cookie.ts';
import { login } from './service.ts';
import { deleteSession, findLiveSession } from './sessions.ts';

export function authRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/login', async (request, reply): Promise<TUser> => {
    const credentials = parseOr400(ZLoginRequest, request.body);
    const { installation, token } = await login(ctx.db, {
      credentials,
      address: request.ip,
      previousToken: readSessionToken(request),
      secret: ctx.sessionSecret,
      now: ctx.now(),
    });
    setSessionCookie(request, reply, token);
    return buildUser(ctx.db, ctx.configs, installation);
  });

  // Public on purpose: ending a session that is already gone still succeeds.
  app.post('/api/logout', async (request, reply) => {
    const token = readSessionToken(request);
    if (token) {
      const live = await findLiveSession(ctx.db, token, ctx.sessionSecret, ctx.now());
      await deleteSession(ctx.db, token, ctx.sessionSecret);
      if (live) {
        await recordAudit(ctx.db, {
          installationId: live.installation.id,
          syncId: live.installation.syncId,
          actor: 'user',
          action: 'logout',
          address: request.ip,
        });
      }
    }
    clearSessionCookie(request, reply);
    return { ok: true };
  });
}
