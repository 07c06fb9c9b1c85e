import type { TUser } from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { currentInstallation, requireSession } from '../auth/guard.ts';
import { buildUser } from './service.ts';

export function userRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/user', { preHandler: requireSession(ctx) }, async (request): Promise<TUser> =>
    buildUser(ctx.db, ctx.configs, currentInstallation(request)),
  );
}
