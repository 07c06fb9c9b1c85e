import { API_PATHS, ZSyncAutomateRequest, type TSyncAutomateResponse } from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { parseOr400 } from '../../http/validate.ts';
import { currentSignIn, requireSession } from '../../http/session-guard.ts';
import { DEFAULT_SYNC_ORDER_SETTINGS, requestSync, type SyncOrderSettings } from './service.ts';

export function syncAutomateRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  settings: Partial<SyncOrderSettings> = {},
): void {
  const effective: SyncOrderSettings = { ...DEFAULT_SYNC_ORDER_SETTINGS, ...settings };
  app.post(
    API_PATHS.syncAutomate,
    { preHandler: requireSession(ctx) },
    async (request): Promise<TSyncAutomateResponse> => {
      const { type } = parseOr400(ZSyncAutomateRequest, request.body);
      const { installation, configVersion } = currentSignIn(request);
      return requestSync(ctx, { installation, configVersion, type, userAddress: request.ip }, effective);
    },
  );
}
