import {
  API_PATHS,
  DASHBOARD_ACTIVITY_PATH,
  TERMINALS_ACTIVITY_PATH,
  type TDashboardActivity,
  type TDashboardView,
  type TTerminalsActivity,
} from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { readDashboardActivity, readTerminalsActivity } from '../../domain/activity.ts';
import { displayTimeZoneOf } from '../../domain/display-zone.ts';
import { currentSignIn, requireSession } from '../../http/session-guard.ts';
import { buildDashboard } from './service.ts';
import { readDashboardState } from './state.ts';
import { ENCODES_ITSELF, sendRepresentation } from '../../http/representations.ts';
import { JSON_CONTENT_TYPE } from '../../domain/current-user.ts';

export function dashboardRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    API_PATHS.dashboard,
    { preHandler: requireSession(ctx), ...ENCODES_ITSELF },
    async (request, reply) => {
      const { installation, configVersion } = currentSignIn(request);
      const config = await ctx.configs.at(ctx.db, installation.id, configVersion);
      const { registration, storage } = await readDashboardState(
        ctx.db,
        installation.id,
        ctx.storageQuotaBytes,
      );
      const view: TDashboardView = {
        ...buildDashboard(installation, config, registration, storage, ctx.now(), ctx.automateAddresses),
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
    },
  );

  // « Activité » and « À traiter » (docs/glance.md): apart from the view above, so that a screen
  // refreshes them alone (react-query key ['dashboard', 'activity']).
  app.get(
    DASHBOARD_ACTIVITY_PATH,
    { preHandler: requireSession(ctx) },
    async (request): Promise<TDashboardActivity> => {
      const signIn = currentSignIn(request);
      const { zone } = await displayTimeZoneOf(ctx, signIn);
      return readDashboardActivity(ctx.db, signIn.installation.id, zone, ctx.now());
    },
  );

  // Terminaux's figures: each terminal's newest exchange and its last 24 hours.
  app.get(
    TERMINALS_ACTIVITY_PATH,
    { preHandler: requireSession(ctx) },
    async (request): Promise<TTerminalsActivity> => {
      const now = ctx.now();
      const signIn = currentSignIn(request);
      const { zone } = await displayTimeZoneOf(ctx, signIn);
      const terminals = await readTerminalsActivity(ctx.db, signIn.installation.id, now);
      return { terminals, now: now.toISOString(), zone };
    },
  );
}
