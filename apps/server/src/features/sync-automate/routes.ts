import { ZSyncAutomateRequest, type TSyncAutomateResponse } from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { parseOr400 } from '../../http/validate.ts';
import { currentInstallation, requireSession } from '../../http/session-guard.ts';
import { requestSync } from './service.ts';

export function syncAutomateRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    '/api/sync-automate',
    { preHandler: requireSession(ctx) },
    async (request): Promise<TSyncAutomateResponse> => {
      const { type } = parseOr400(ZSyncAutomateRequest, request.body);
      return requestSync(ctx.db, currentInstallation(request), type, request.ip);
    },
  );
}
