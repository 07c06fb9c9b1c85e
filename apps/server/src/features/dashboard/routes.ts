import { API_PATHS, type TDashboardView } from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { findAutomateRegistration } from '../../domain/automate-registrations.ts';
import { storageUse } from '../../domain/storage.ts';
import { currentSignIn, requireSession } from '../../http/session-guard.ts';
import { buildDashboard } from './service.ts';
import { sendRepresentation } from '../../http/representations.ts';
import { JSON_CONTENT_TYPE } from '../../domain/current-user.ts';

export function dashboardRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(API_PATHS.dashboard, { preHandler: requireSession(ctx) }, async (request, reply) => {
    const { installation, configVersion } = currentSignIn(request);
    const config = await ctx.configs.at(ctx.db, installation.id, configVersion);
    const registration = await findAutomateRegistration(ctx.db, installation.id);
    const storage = await storageUse(ctx.db, installation.id, ctx.storageQuotaBytes);
    const view: TDashboardView = {
      ...buildDashboard(installation, config, registration, storage, ctx.now()),
      supportLinks: ctx.supportLinks,
    };
    // Built on every request (the automate's state, the storage use, the time change it), but
    // encoded only when its bytes change (http/representations.ts).
    return sendRepresentation(ctx.representations, request, reply, {
      scope: installation.id,
      slot: API_PATHS.dashboard,
      body: Buffer.from(JSON.stringify(view), 'utf8'),
      contentType: JSON_CONTENT_TYPE,
    });
  });
}
