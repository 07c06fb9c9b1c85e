import { API_PATHS, type TServerIp } from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { requireSession } from '../../http/session-guard.ts';
import { outwardAddress } from '../../network/outward-address.ts';

export const NO_NETWORK_MESSAGE =
  "Adresse IP du serveur introuvable : le serveur n'a aucune route réseau vers l'extérieur. " +
  'Indiquez son adresse publique dans la variable PUBLIC_IP.';

/**
 * GET /api/server-ip (signed in only): PUBLIC_IP when set, else the address of the server's
 * default route (read at each call: it follows a change of network). Behind a NAT that address
 * is a private one: PUBLIC_IP gives the public one.
 */
export function serverIpRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  findAddress: () => Promise<string | null> = outwardAddress,
): void {
  app.get(API_PATHS.serverIp, { preHandler: requireSession(ctx) }, async (): Promise<TServerIp> => {
    if (ctx.publicIp) return { ip: ctx.publicIp, source: 'configured' };
    const ip = await findAddress();
    if (!ip) throw new AppError(503, NO_NETWORK_MESSAGE, 'NO_NETWORK');
    return { ip, source: 'interface' };
  });
}
