import {
  DRIVE_PATHS,
  ZAutomateReport,
  ZImportQueueQuery,
  ZImportRecordIdParam,
  type TAutomateReportAnswer,
  type TConnectorBatchAnswer,
  type TConnectorConfigPatchAnswer,
  type TDriveAccessTokenAnswer,
  type TImportQueueAnswer,
  type TImportResultAnswer,
} from '@synchro/contracts';
import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { AppContext } from '../../context.ts';
import { refuseBeyondQuota } from '../../domain/storage.ts';
import { accessTokenFor } from '../../domain/drive-links.ts';
import { connectorTimeZone } from '../../domain/time-zone.ts';
import { holdBody } from '../../http/body-budget.ts';
import { installRawJsonBodies, parseJsonBytes } from '../../http/json-body.ts';
import { parseConnectorOr400 } from '../../http/validate.ts';
import { runOnBody } from '../../offload/pool.ts';
import { connectorCaller, requireConnector } from './auth.ts';
import { registerAutomate } from './automate.ts';
import { checkConfigurationPatchTask } from './checked-batches.ts';
import { parseIfNoneMatch, readConfigurationText, writeConnectorParts } from './configuration.ts';
import { applyResult, ingestRecords, readQueue, unknownRecord } from './import-records.ts';
import {
  BODY_LIMITS,
  DEFAULT_RATE_LIMITS,
  type ConnectorBucket,
  type ConnectorRateLimits,
} from './limits.ts';
import { ingestTransactions } from './transactions.ts';
import { errorCodeOf } from '../../http/error-handler.ts';
import { requestInstallation } from '../../http/request-installation.ts';
import type { BatchKindName } from '../../metrics/registry.ts';

export interface ConnectorRoutesOptions {
  /** Requests per installation and minute, by route group (DEFAULT_RATE_LIMITS otherwise). */
  rateLimits?: Partial<ConnectorRateLimits>;
}

const BASE = '/api/connector/v1';

/**
 * The connector API v1 (design/connector-api.md, docs/connector-api.md). Every route: the bearer
 * token checked before the body is read (401/403), then the route group's rate limit (429), its
 * own body limit (413), JSON only, errors `{error, message}`.
 */
export function connectorRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  options: ConnectorRoutesOptions = {},
): void {
  // The routes read their bodies themselves: a big one is parsed in a worker thread (offload/).
  void app.register(async (scope) => {
    installRawJsonBodies(scope);
    connectorScope(scope, ctx, options);
  });
}

/** The bytes of a request body (installRawJsonBodies); an empty body is no byte. */
function bodyBytes(request: FastifyRequest): Uint8Array {
  return request.body instanceof Uint8Array ? request.body : new Uint8Array(0);
}

/** The batch routes, by their names in the metrics. */
const BATCH_ROUTES: Record<string, BatchKindName> = {
  [`${BASE}/import-records`]: 'records',
  [`${BASE}/transactions`]: 'transactions',
};

function connectorScope(app: FastifyInstance, ctx: AppContext, options: ConnectorRoutesOptions): void {
  const limits: ConnectorRateLimits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits };
  // Every batch answered, accepted or refused with its error code (metrics/registry.ts).
  app.addHook('onResponse', async (request, reply) => {
    const kind = BATCH_ROUTES[request.routeOptions.url ?? ''];
    if (!kind || request.method !== 'POST') return;
    const outcome = reply.statusCode < 400 ? 'accepted' : (errorCodeOf(request) ?? String(reply.statusCode));
    ctx.metrics.connectorBatch(kind, outcome, requestInstallation(request)?.syncId ?? null);
  });
  const route = (bucket: ConnectorBucket, bodyLimit: number): RouteShorthandOptions => ({
    config: { connectorApi: true },
    bodyLimit,
    onRequest: [
      requireConnector(ctx, bucket, limits),
      // The body's bytes in the memory budget, before it is read (503 beyond).
      async (request, reply) =>
        holdBody(ctx.bodies, connectorCaller(request).installation.id, request, reply),
    ],
  });
  /** 507 when the body's bytes would pass the installation's storage quota (read with the token). */
  const ensureRoom = (request: FastifyRequest) =>
    refuseBeyondQuota(
      connectorCaller(request).storageUse(ctx.storageQuotaBytes),
      bodyBytes(request).byteLength,
    );

  /** The zone the caller's times without offset are read in. */
  const zoneOf = async (request: FastifyRequest) => {
    const { installation, configVersion } = connectorCaller(request);
    return connectorTimeZone(await ctx.configs.at(ctx.db, installation.id, configVersion), installation);
  };

  app.post(
    `${BASE}/automate`,
    route('automate', BODY_LIMITS.automate),
    async (request): Promise<TAutomateReportAnswer> => {
      const report = parseConnectorOr400(ZAutomateReport, parseJsonBytes(bodyBytes(request)));
      return registerAutomate(ctx.db, ctx.automateAddresses, {
        installation: connectorCaller(request).installation,
        report,
        sourceAddress: request.ip,
        now: ctx.now(),
        configs: ctx.configs,
      });
    },
  );

  app.get(`${BASE}/configuration`, route('configuration-read', BODY_LIMITS.none), async (request, reply) => {
    const { installation } = connectorCaller(request);
    const ifNoneMatch = parseIfNoneMatch(request.headers['if-none-match']);
    const read = await readConfigurationText(ctx.db, installation.id, ifNoneMatch);
    void reply.header('ETag', `"${read.version}"`);
    if (read.text === null) return reply.status(304).send();
    return reply.type('application/xml; charset=utf-8').send(read.text);
  });

  app.patch(
    `${BASE}/configuration`,
    route('configuration-write', BODY_LIMITS.configurationPatch),
    async (request): Promise<TConnectorConfigPatchAnswer> => {
      const { installation } = connectorCaller(request);
      const offload = ctx.offload.for(installation.id);
      const patch = await runOnBody(offload, checkConfigurationPatchTask, { body: bodyBytes(request) });
      return ctx.configWrites.run(installation.id, () =>
        writeConnectorParts(
          ctx.db,
          offload,
          installation,
          patch,
          request.ip,
          ctx.versionRetention,
          ctx.now(),
        ),
      );
    },
  );

  app.post(
    `${BASE}/import-records`,
    route('import-records', BODY_LIMITS.importRecords),
    async (request): Promise<TConnectorBatchAnswer> => {
      ensureRoom(request);
      const zone = await zoneOf(request);
      const { installation } = connectorCaller(request);
      return ingestRecords(ctx, installation, bodyBytes(request), zone, ctx.now());
    },
  );

  app.get(
    `${BASE}/import-records/queue`,
    route('import-queue', BODY_LIMITS.none),
    async (request): Promise<TImportQueueAnswer> => {
      const { limit } = parseConnectorOr400(ZImportQueueQuery, request.query);
      const { installation } = connectorCaller(request);
      return { records: await readQueue(ctx.db, installation.id, limit, await zoneOf(request)) };
    },
  );

  app.post(
    `${BASE}/import-records/:IDInterne/result`,
    route('import-result', BODY_LIMITS.importResult),
    async (request): Promise<TImportResultAnswer> => {
      // An id no record can have (blank, over 100 characters, a control character: what a
      // record's IDInterne may not be) is not one of this installation's: 404 like an unknown id.
      const id = ZImportRecordIdParam.safeParse(request.params);
      if (!id.success)
        throw unknownRecord(String((request.params as { IDInterne?: unknown }).IDInterne ?? ''));
      const { IDInterne } = id.data;
      ensureRoom(request);
      const { installation } = connectorCaller(request);
      return applyResult(ctx, installation, IDInterne, bodyBytes(request), ctx.now());
    },
  );

  app.post(
    `${BASE}/transactions`,
    route('transactions', BODY_LIMITS.transactions),
    async (request): Promise<TConnectorBatchAnswer> => {
      ensureRoom(request);
      const zone = await zoneOf(request);
      const { installation } = connectorCaller(request);
      return ingestTransactions(ctx, installation, bodyBytes(request), zone, ctx.now());
    },
  );

  app.get(
    DRIVE_PATHS.accessToken,
    route('drive-token', BODY_LIMITS.none),
    async (request, reply): Promise<TDriveAccessTokenAnswer> => {
      const now = ctx.now();
      const token = await accessTokenFor(ctx.db, ctx.drive, connectorCaller(request).installation.id, now);
      void reply.header('Cache-Control', 'no-store');
      return {
        Type_Drive: token.provider,
        Compte: token.account,
        access_token: token.accessToken,
        token_type: 'Bearer',
        expires_in: Math.max(0, Math.floor((token.expiresAt.getTime() - now.getTime()) / 1000)),
        expires_at: token.expiresAt.toISOString(),
      };
    },
  );
}
