import type { TDashboardView } from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { currentInstallation, requireSession } from '../auth/guard.ts';
import { buildDashboard } from './service.ts';

export function dashboardRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/dashboard', { preHandler: requireSession(ctx) }, async (request): Promise<TDashboardView> => {
    const installation = currentInstallation(request);
    return buildDashboard(installation, await ctx.configs.get(ctx.db, installation.id), ctx.now());
  });
}
