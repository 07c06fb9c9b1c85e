import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { accessRefusal, type Installation } from '../domain/installations.ts';
import { deleteInstallationSessions, findLiveSession } from '../domain/sessions.ts';
import { unauthorized } from './errors.ts';
import { readSessionToken } from './session-cookie.ts';

interface SignedIn {
  installation: Installation;
  /** The stored configuration version, read with the session (keys the configuration cache). */
  configVersion: number;
}

const signedIn = new WeakMap<FastifyRequest, SignedIn>();

/** preHandler of every protected route: a live session of an installation still allowed in. */
export function requireSession(ctx: AppContext) {
  return async (request: FastifyRequest): Promise<void> => {
    const token = readSessionToken(request);
    if (!token) throw unauthorized();
    const now = ctx.now();
    const live = await findLiveSession(ctx.db, token, ctx.sessionSecret, now);
    if (!live) throw unauthorized('Session expirée ou invalide : veuillez vous reconnecter.');
    const { installation, configVersion } = live;
    const refusal = accessRefusal(installation, now);
    if (refusal) {
      await deleteInstallationSessions(ctx.db, installation.id);
      throw unauthorized(refusal);
    }
    signedIn.set(request, { installation, configVersion });
  };
}

/** The installation of the signed-in user of a request that passed requireSession. */
export function currentInstallation(request: FastifyRequest): Installation {
  return currentSignIn(request).installation;
}

/** The installation of a request that passed requireSession and its configuration version. */
export function currentSignIn(request: FastifyRequest): SignedIn {
  const found = signedIn.get(request);
  if (!found) throw unauthorized();
  return found;
}
