import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

/**
 * `GET /metrics` on a port of its own (METRICS_PORT, on HOST): not on the public port, no session.
 * Anything else is a 404.
 */
export async function startMetricsServer(registry: Registry, port: number, host: string): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Introuvable\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () =>
        response
          .writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
          .end('Mesures indisponibles\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
