import {
  CONFIG_HISTORY_MESSAGES,
  CONFIG_HISTORY_PATH,
  ZConfigChangesQuery,
  ZConfigHistoryQuery,
  ZConfigRawQuery,
  ZRestoreRequest,
  type TConfigChanges,
  type TConfigHistoryPage,
  type TConfigRawDiff,
  type TRestoreResponse,
} from '@synchro/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { displayTimeZoneOf } from '../../domain/display-zone.ts';
import { AppError } from '../../http/errors.ts';
import { currentInstallation, currentSignIn, requireSession } from '../../http/session-guard.ts';
import { parseOr400 } from '../../http/validate.ts';
import { parseIfMatch } from '../../http/if-match.ts';
import { listVersions, restoreVersion, versionChanges, versionRawDiff } from './service.ts';

/** A version number from the path, or the 404 of an unknown version. */
function versionParam(request: FastifyRequest<{ Params: { version: string } }>): number {
  const v = request.params.version;
  if (!/^[1-9]\d{0,8}$/.test(v))
    throw new AppError(404, CONFIG_HISTORY_MESSAGES.versionNotFound, 'NOT_FOUND');
  return Number(v);
}

/** The configuration history of the signed-in installation (docs/config-history.md). */
export function configurationHistoryRoutes(app: FastifyInstance, ctx: AppContext): void {
  const preHandler = requireSession(ctx);

  app.get(CONFIG_HISTORY_PATH, { preHandler }, async (request): Promise<TConfigHistoryPage> => {
    const query = parseOr400(ZConfigHistoryQuery, request.query);
    const signIn = currentSignIn(request);
    return listVersions(
      ctx.db,
      signIn.installation.id,
      query,
      await displayTimeZoneOf(ctx, signIn),
      ctx.sessionSecret,
      ctx.versionRetention,
    );
  });

  app.get<{ Params: { version: string } }>(
    `${CONFIG_HISTORY_PATH}/:version/changes`,
    { preHandler },
    async (request): Promise<TConfigChanges> => {
      const { against } = parseOr400(ZConfigChangesQuery, request.query);
      return versionChanges(ctx.db, currentInstallation(request).id, versionParam(request), against);
    },
  );

  app.get<{ Params: { version: string } }>(
    `${CONFIG_HISTORY_PATH}/:version/raw`,
    { preHandler },
    async (request): Promise<TConfigRawDiff> => {
      const { section, against } = parseOr400(ZConfigRawQuery, request.query);
      return versionRawDiff(ctx.db, currentInstallation(request).id, versionParam(request), section, against);
    },
  );

  app.post<{ Params: { version: string } }>(
    `${CONFIG_HISTORY_PATH}/:version/restore`,
    { preHandler },
    async (request): Promise<TRestoreResponse> => {
      const version = versionParam(request);
      const ifMatch = parseIfMatch(request.headers['if-match']);
      if (ifMatch === null)
        throw new AppError(428, CONFIG_HISTORY_MESSAGES.ifMatchRequired, 'if-match-required');
      const body = parseOr400(ZRestoreRequest, request.body ?? {});
      const installation = currentInstallation(request);
      return ctx.configWrites.run(installation.id, () =>
        restoreVersion(ctx.db, {
          installation,
          version,
          sections: body.sections,
          ifMatch,
          address: request.ip,
          retention: ctx.versionRetention,
          offload: ctx.offload.for(installation.id),
        }),
      );
    },
  );
}
