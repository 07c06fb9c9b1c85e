import { API_PATHS, type TDashboardView } from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { findAutomateRegistration } from '../../domain/automate-registrations.ts';
import { storageUse } from '../../domain/storage.ts';
import { currentSignIn, requireSession } from '../../http/session-guard.ts';
import { buildDashboard } from './service.ts';

export function dashboardRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    API_PATHS.dashboard,
    { preHandler: requireSession(ctx) },
    async (request): Promise<TDashboardView> => {
      const { installation, configVersion } = currentSignIn(request);
      const config = await ctx.configs.at(ctx.db, installation.id, configVersion);
      const registration = await findAutomateRegistration(ctx.db, installation.id);
      const storage = await storageUse(ctx.db, installation.id, ctx.storageQuotaBytes);
      return {
        ...buildDashboard(installation, config, registration, storage, ctx.now()),
        supportLinks: ctx.supportLinks,
      };
    },
  );
}
