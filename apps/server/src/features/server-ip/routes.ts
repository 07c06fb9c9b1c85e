import type { TServerIp } from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { requireSession } from '../../http/session-guard.ts';

export const PUBLIC_IP_MISSING_MESSAGE = 'Adresse IP publique du serveur non configurée (variable PUBLIC_IP)';

export function serverIpRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/server-ip', { preHandler: requireSession(ctx) }, async (): Promise<TServerIp> => {
    if (!ctx.publicIp) throw new AppError(503, PUBLIC_IP_MISSING_MESSAGE, 'PUBLIC_IP_MISSING');
    return { ip: ctx.publicIp };
  });
}
