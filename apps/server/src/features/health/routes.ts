import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { databaseReady } from './service.ts';

/**
 * GET /healthz (the process answers) and GET /readyz (database reachable, migrations done, not
 * stopping): plain text, no session, nothing secret, logged at debug level only (request-log.ts).
 */
export function healthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/healthz', async (_request, reply) => reply.type('text/plain; charset=utf-8').send('ok\n'));

  app.get('/readyz', async (_request, reply) => {
    void reply.type('text/plain; charset=utf-8').header('Cache-Control', 'no-store');
    if (ctx.lifecycle.stopping) return reply.status(503).send('arrêt en cours\n');
    const problem = await databaseReady(ctx.db);
    if (problem) return reply.status(503).send(`${problem}\n`);
    return reply.send('prêt\n');
  });
}
