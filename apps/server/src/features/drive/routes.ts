import {
  DRIVE_PATHS,
  ZDriveConnectRequest,
  type TDriveCallbackCode,
  type TDriveConnectAnswer,
  type TDriveDisconnectAnswer,
  type TDriveStatus,
} from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import {
  completeAuthorization,
  disconnectDrive,
  DriveCallbackError,
  findDriveLink,
  startAuthorization,
} from '../../domain/drive-links.ts';
import { grantMayLive } from '../../domain/drive-revocation.ts';
import { AppError } from '../../http/errors.ts';
import { readSessionToken } from '../../http/session-cookie.ts';
import { currentSignIn, requireSession } from '../../http/session-guard.ts';
import { parseOr400 } from '../../http/validate.ts';

/**
 * « Connecter » / « Déconnecter » of Drive pour la GED (docs/mail.md, Drive): the OAuth 2.0
 * authorisation code flow with PKCE for the signed-in installation. The browser is sent to the
 * provider, which sends it back to the callback; the screen reads the outcome from
 * `/complement?drive=<code>`. No token ever reaches the browser.
 */
export function driveRoutes(app: FastifyInstance, ctx: AppContext): void {
  const preHandler = requireSession(ctx);

  const status = async (installationId: string): Promise<TDriveStatus> => {
    const link = await findDriveLink(ctx.db, installationId);
    return {
      configured: {
        google: ctx.drive.clients.google !== null,
        onedrive: ctx.drive.clients.onedrive !== null,
      },
      link: link ? { ...link, connectedAt: link.connectedAt.toISOString() } : null,
    };
  };

  app.get(DRIVE_PATHS.status, { preHandler }, async (request) =>
    status(currentSignIn(request).installation.id),
  );

  app.post(DRIVE_PATHS.connect, { preHandler }, async (request): Promise<TDriveConnectAnswer> => {
    const { provider } = parseOr400(ZDriveConnectRequest, request.body);
    const authorizationUrl = await startAuthorization(ctx.db, ctx.drive, {
      installationId: currentSignIn(request).installation.id,
      sessionToken: readSessionToken(request) ?? '',
      provider,
      now: ctx.now(),
    });
    return { authorizationUrl };
  });

  app.post(DRIVE_PATHS.disconnect, { preHandler }, async (request): Promise<TDriveDisconnectAnswer> => {
    const { installation } = currentSignIn(request);
    const revocation = await disconnectDrive(ctx.db, ctx.drive, {
      installationId: installation.id,
      syncId: installation.syncId,
      address: request.ip,
    });
    const grantKept = revocation !== null && grantMayLive(revocation);
    if (grantKept)
      request.log.warn({ drive: revocation }, 'autorisation du Drive non révoquée chez le fournisseur');
    return { ...(await status(installation.id)), grantKept };
  });

  // The provider sends the browser back here: without a live session (another browser, a session
  // ended meanwhile) it lands on the screen with « expirée », not on a JSON 401 page.
  app.get<{ Querystring: Record<string, unknown> }>(DRIVE_PATHS.callback, async (request, reply) => {
    try {
      await preHandler(request);
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 401) throw err;
      return reply.header('Cache-Control', 'no-store').redirect('/complement?drive=expired', 302);
    }
    const { installation } = currentSignIn(request);
    const text = (name: string) => {
      const value = request.query[name];
      return typeof value === 'string' && value.length <= 4096 ? value : '';
    };
    let outcome: TDriveCallbackCode = 'connected';
    if (text('error') !== '') {
      outcome = text('error') === 'access_denied' ? 'denied' : 'refused';
    } else {
      try {
        const { previous } = await completeAuthorization(ctx.db, ctx.drive, {
          installationId: installation.id,
          syncId: installation.syncId,
          sessionToken: readSessionToken(request) ?? '',
          state: text('state'),
          code: text('code'),
          now: ctx.now(),
          address: request.ip,
        });
        if (previous !== null && grantMayLive(previous)) {
          request.log.warn({ drive: previous }, 'autorisation précédente du Drive non révoquée');
          outcome = 'connected-previous-kept';
        }
      } catch (err) {
        if (!(err instanceof DriveCallbackError)) throw err;
        request.log.warn({ drive: err.failure }, 'connexion au Drive non aboutie');
        outcome = err.failure;
      }
    }
    return reply.header('Cache-Control', 'no-store').redirect(`/complement?drive=${outcome}`, 302);
  });
}
