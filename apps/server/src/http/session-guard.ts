import type { FastifyInstance, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import type { AppContext } from '../context.ts';
import { accessRefusal, type Installation } from '../domain/installations.ts';
import { deleteInstallationSessions, findLiveSession } from '../domain/sessions.ts';
import { unauthorized } from './errors.ts';
import { noteRequestInstallation } from './request-installation.ts';
import { readSessionToken } from './session-cookie.ts';

interface SignedIn {
  installation: Installation;
  /** The stored configuration version, read with the session (keys the configuration cache). */
  configVersion: number;
}

const signedIn = new WeakMap<FastifyRequest, SignedIn>();

const sessionChecks = new WeakSet<object>();

/**
 * The session check of every protected route: a live session of an installation still allowed
 * in. Routes list it as a `preHandler`; `installSessionGuard` runs it at `onRequest` instead, so
 * that an anonymous request is refused before its body is read or parsed.
 */
export function requireSession(ctx: AppContext) {
  const check = async (request: FastifyRequest): Promise<void> => {
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
    noteRequestInstallation(request, installation);
  };
  sessionChecks.add(check);
  return check;
}

const asList = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

/**
 * Moves the session check of every route registered afterwards from `preHandler` (after the body
 * is parsed and validated) to `onRequest` (before any byte of the body is read): fastify reads
 * the body between the two.
 */
export function installSessionGuard(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const preHandlers = asList(route.preHandler);
    const checks = preHandlers.filter((hook) => sessionChecks.has(hook));
    if (checks.length === 0) return;
    route.preHandler = preHandlers.filter((hook) => !sessionChecks.has(hook));
    route.onRequest = [...(checks as unknown as onRequestHookHandler[]), ...asList(route.onRequest)];
  });
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
