import { API_PATHS, type TRepairResponse, type TXmlStatusResponse } from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { currentInstallation, requireSession } from '../../http/session-guard.ts';
import { repairStored, xmlStatus } from './service.ts';

export function debugRoutes(app: FastifyInstance, ctx: AppContext): void {
  const guard = { preHandler: requireSession(ctx) };
  app.get(API_PATHS.debugXmlStatus, guard, async (request): Promise<TXmlStatusResponse> =>
    xmlStatus(ctx, currentInstallation(request).id),
  );
  app.post(API_PATHS.debugRepairXml, guard, async (request): Promise<TRepairResponse> => {
    const installation = currentInstallation(request);
    return ctx.configWrites.run(installation.id, () => repairStored(ctx, installation, request.ip));
  });
}
