import {
  CONFIG_SECTION_KEYS,
  CONFIG_SECTIONS,
  PLANNINGS_LIST_PATH,
  type TSaveableSectionKey,
  type TSaveResponse,
} from '@synchro/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { derive } from '../../domain/config-cache.ts';
import { documentOr422 } from '../../domain/config-reading.ts';
import { AppError } from '../../http/errors.ts';
import { currentInstallation, currentSignIn, requireSession } from '../../http/session-guard.ts';
import { installRawJsonBodies } from '../../http/json-body.ts';
import { legacyPlannings, SECTION_SAVERS, SECTION_VIEWS } from './sections.ts';
import { parseIfMatch } from '../../http/if-match.ts';
import { ENCODES_ITSELF, sendRepresentation } from '../../http/representations.ts';
import { JSON_CONTENT_TYPE } from '../../domain/current-user.ts';
import { saveInput, sectionSave } from './edit-task.ts';
import { saveSection } from './service.ts';
import { historyReferences } from '../../domain/sync-data-history.ts';

const NO_REFERENCES: ReadonlySet<string> = new Set();

/** The parsed newest configuration of the signed-in installation (422 when unreadable). */
async function currentDocument(ctx: AppContext, request: FastifyRequest) {
  const { installation, configVersion } = currentSignIn(request);
  const entry = await ctx.configs.at(ctx.db, installation.id, configVersion);
  return { entry, doc: documentOr422(entry) };
}

/** Every route of CONFIG_SECTIONS (GET view, save), plus the earlier console's schedule list. */
export function configurationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const preHandler = requireSession(ctx);

  for (const key of CONFIG_SECTION_KEYS) {
    app.get(CONFIG_SECTIONS[key].getPath, { preHandler, ...ENCODES_ITSELF }, async (request, reply) => {
      const { entry, doc } = await currentDocument(ctx, request);
      const viewKey = `view-bytes:${key}`;
      // Only the data to sync read what the server keeps besides the document, once per version.
      const hadHistory =
        key === 'syncData' && !entry.derived.has(viewKey)
          ? await historyReferences(ctx.db, currentSignIn(request).installation.id)
          : NO_REFERENCES;
      const body = derive(entry, viewKey, () =>
        Buffer.from(
          JSON.stringify({ version: entry.version, data: SECTION_VIEWS[key](doc, { hadHistory }) }),
          'utf8',
        ),
      );
      // ETag "<version>-<hash>": the version first (what If-Match of a save names), the hash keeps
      // two installations' tags apart.
      return sendRepresentation(ctx.representations, request, reply, {
        scope: currentSignIn(request).installation.id,
        slot: CONFIG_SECTIONS[key].getPath,
        body,
        contentType: JSON_CONTENT_TYPE,
        etagPrefix: `${entry.version}-`,
      });
    });
  }

  const saveRoute = (scope: FastifyInstance, key: TSaveableSectionKey) => {
    const { path, method } = sectionSave(key);
    const errorField = SECTION_SAVERS[key].errorField === true;
    scope.route({
      method,
      url: path,
      preHandler,
      handler: async (request: FastifyRequest, reply: FastifyReply): Promise<TSaveResponse> => {
        try {
          const ifMatch = parseIfMatch(request.headers['if-match']);
          const installation = currentInstallation(request);
          return await ctx.configWrites.run(installation.id, () =>
            saveSection(ctx.db, {
              key,
              installation,
              ifMatch,
              input: saveInput(key, request.body),
              address: request.ip,
              retention: ctx.versionRetention,
              offload: ctx.offload.for(installation.id),
            }),
          );
        } catch (err) {
          if (!errorField || !(err instanceof AppError)) throw err;
          return reply
            .status(err.status)
            .send({ message: err.message, ...(err.code ? { code: err.code } : {}), error: err.message });
        }
      },
    });
  };
  const saveable = CONFIG_SECTION_KEYS.filter((key) => CONFIG_SECTIONS[key].save) as TSaveableSectionKey[];
  for (const key of saveable) if (!SECTION_SAVERS[key].bigBody) saveRoute(app, key);
  // The saves that take a big body read it as bytes: a big one is parsed in a worker thread.
  void app.register(async (scope) => {
    installRawJsonBodies(scope);
    for (const key of saveable) if (SECTION_SAVERS[key].bigBody) saveRoute(scope, key);
  });

  app.get(PLANNINGS_LIST_PATH, { preHandler }, async (request) => {
    const { entry, doc } = await currentDocument(ctx, request);
    return derive(entry, 'plannings:legacy', () => legacyPlannings(doc));
  });
}
