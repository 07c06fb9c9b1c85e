import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { currentSignIn, requireSession } from '../../http/session-guard.ts';
import { JSON_CONTENT_TYPE, userBody } from '../../domain/current-user.ts';
import { ENCODES_ITSELF, sendRepresentation } from '../../http/representations.ts';
import { API_PATHS } from '@synchro/contracts';

export function userRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The answer is ZUser (userOf), sent as prebuilt bytes (userBody), encoded once per content
  // (http/representations.ts). Nothing in it belongs to the session: the same bytes for every
  // session of the installation.
  app.get(API_PATHS.user, { preHandler: requireSession(ctx), ...ENCODES_ITSELF }, async (request, reply) => {
    const { installation, configVersion } = currentSignIn(request);
    const config = await ctx.configs.at(ctx.db, installation.id, configVersion);
    const body = userBody(installation, config);
    return sendRepresentation(ctx.representations, request, reply, {
      scope: installation.id,
      slot: API_PATHS.user,
      body,
      contentType: JSON_CONTENT_TYPE,
    });
  });
}
