import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { connectorOpenApi } from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import { CONNECTOR_DOCS_CSS, CONNECTOR_DOCS_PAGE, CONNECTOR_DOCS_START } from './page.ts';

/** The files of the renderer (swagger-ui-dist, served from this server: no CDN). */
const RENDERER_FILES = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
} as const;

function rendererDir(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/**
 * The connector API's reference, for those who build connectors (no session, nothing secret):
 * GET /api/connector/v1/openapi.json (OpenAPI 3.1, generated from the zod contracts) and
 * GET /docs/connector (a page that renders it with Swagger UI, served locally).
 */
export function connectorDocsRoutes(app: FastifyInstance): void {
  const document = JSON.stringify(connectorOpenApi());
  app.get('/api/connector/v1/openapi.json', async (_request, reply) =>
    reply.type('application/json; charset=utf-8').header('Cache-Control', 'no-cache').send(document),
  );
  app.get('/docs/connector', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(CONNECTOR_DOCS_PAGE),
  );
  app.get('/docs/connector/start.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(CONNECTOR_DOCS_START),
  );
  app.get('/docs/connector/page.css', async (_request, reply) =>
    reply.type('text/css; charset=utf-8').send(CONNECTOR_DOCS_CSS),
  );
  const files = new Map<string, Buffer>();
  for (const [name, type] of Object.entries(RENDERER_FILES)) {
    app.get(`/docs/connector/${name}`, async (_request, reply) => {
      let bytes = files.get(name);
      if (!bytes) {
        bytes = readFileSync(join(rendererDir(), name));
        files.set(name, bytes);
      }
      return reply.type(type).header('Cache-Control', 'public, max-age=86400').send(bytes);
    });
  }
}
