import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { currentSignIn, requireSession } from '../../http/session-guard.ts';
import { JSON_CONTENT_TYPE, userBody } from '../../domain/current-user.ts';
import { API_PATHS } from '@synchro/contracts';

export function userRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The answer is ZUser (userOf), sent as prebuilt bytes: see userBody.
  app.get(API_PATHS.user, { preHandler: requireSession(ctx) }, async (request, reply) => {
    const { installation, configVersion } = currentSignIn(request);
    const config = await ctx.configs.at(ctx.db, installation.id, configVersion);
    return reply.type(JSON_CONTENT_TYPE).send(userBody(installation, config));
  });
}
