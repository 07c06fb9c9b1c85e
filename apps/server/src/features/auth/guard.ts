import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { unauthorized } from '../../http/errors.ts';
import type { Installation } from '../installations/service.ts';
import { readSessionToken } from './cookie.ts';
import { accessRefusal } from './service.ts';
import { deleteInstallationSessions, findLiveSession } from './sessions.ts';

const signedIn = new WeakMap<FastifyRequest, Installation>();

/** preHandler of every protected route: a live session of an installation still allowed in. */
export function requireSession(ctx: AppContext) {
  return async (request: FastifyRequest): Promise<void> => {
    const token = readSessionToken(request);
    if (!token) throw unauthorized();
    const now = ctx.now();
    const live = await findLiveSession(ctx.db, token, ctx.sessionSecret, now);
    if (!live) throw unauthorized('Session expirée ou invalide : veuillez vous reconnecter.');
    const { installation } = live;
    const refusal = accessRefusal(installation, now);
    if (refusal) {
      await deleteInstallationSessions(ctx.db, installation.id);
      throw unauthorized(refusal);
    }
    signedIn.set(request, installation);
  };
}

/** The installation of the signed-in user of a request that passed requireSession. */
export function currentInstallation(request: FastifyRequest): Installation {
  const installation = signedIn.get(request);
  if (!installation) throw unauthorized();
  return installation;
}
