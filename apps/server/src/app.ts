import {
  DEFAULT_FAIR_SHARE,
  DEFAULT_VERSION_RETENTION,
  type FairShareSettings,
  type VersionRetention,
} from './config/env.ts';
import fastifyCookie from '@fastify/cookie';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { TSupportLinks } from '@synchro/contracts';
import type { AppContext } from './context.ts';
import { healthRoutes } from './features/health/routes.ts';
import { connectorDocsRoutes } from './features/connector-docs/routes.ts';
import { installRequestLog } from './http/request-log.ts';
import { refuseWhileStopping } from './http/stopping.ts';
import { createLifecycle, type Lifecycle } from './lifecycle.ts';
import { createMetrics, type ServerMetrics } from './metrics/registry.ts';
import type { Db } from './db/types.ts';
import { apartPolicyFor, type ApartPolicy } from './domain/blobs.ts';
import { ConfigCache } from './domain/config-cache.ts';
import { REVOCATION_TIMEOUT_MS } from './domain/drive-revocation.ts';
import { ExportSlots } from './domain/export-slots.ts';
import type { Mailer } from './domain/mail-sender.ts';
import { enableSessionCache } from './domain/session-cache.ts';
import type { DriveEnv } from './config/mail-env.ts';
import { sealKey } from './security/token-box.ts';
import { DEFAULT_AUDIT_RETENTION_DAYS } from './domain/audit-retention.ts';
import { auditRoutes } from './features/audit/routes.ts';
import { authRoutes } from './features/auth/routes.ts';
import { configurationHistoryRoutes } from './features/configuration-history/routes.ts';
import { configurationRoutes } from './features/configuration/routes.ts';
import { connectorRoutes, type ConnectorRoutesOptions } from './features/connector/routes.ts';
import { dashboardRoutes } from './features/dashboard/routes.ts';
import { debugRoutes } from './features/debug/routes.ts';
import { importHistoryRoutes } from './features/import-history/routes.ts';
import { mailRoutes } from './features/mail/routes.ts';
import { driveRoutes } from './features/drive/routes.ts';
import { serverIpRoutes } from './features/server-ip/routes.ts';
import { syncAutomateRoutes } from './features/sync-automate/routes.ts';
import type { SyncOrderSettings } from './features/sync-automate/service.ts';
import { transactionLogsRoutes } from './features/transaction-logs/routes.ts';
import { userRoutes } from './features/user/routes.ts';
import { createLiveHub } from './live/hub.ts';
import { createConfigWriteGate, type ConfigWriteGate } from './domain/config-write-gate.ts';
import { HEARTBEAT_MS, liveRoutes } from './features/live/routes.ts';
import { installCompression } from './http/compression.ts';
import { RepresentationStore } from './domain/representation-store.ts';
import { serveAssetsFromMemory } from './http/static-assets.ts';
import { BODY_LIMITS, installBodyLimits } from './http/body-limits.ts';
import { installErrorHandling } from './http/error-handler.ts';
import { installJsonBodyParser } from './http/json-body.ts';
import { routerErrors, sendNotFound } from './http/not-found.ts';
import { installRequestGuards } from './http/security.ts';
import { installSessionGuard } from './http/session-guard.ts';
import { loggerOptions } from './http/logging.ts';
import { createAutomateAddressPolicy } from './network/automate-address.ts';
import { DEMO_SYNC_ID } from './demo/demo.ts';
import { readSessionToken } from './http/session-cookie.ts';
import { ByteBudget } from './offload/byte-budget.ts';
import { sharedOffloadPool, type Offload } from './offload/pool.ts';
import { hasBuiltSpa, isSpaPage, serveSpa, spaPage } from './static/spa.ts';

export interface AppDeps {
  db: Db;
  sessionSecret: string;
  publicIp?: string | undefined;
  /**
   * fastify trustProxy: X-Forwarded-Proto/-For/-Host are believed only from these proxies (a hop
   * count or their addresses; never `true`, which would believe any client).
   */
  trustProxy?: false | number | string;
  allowedOrigins?: readonly string[];
  /** Folder of the built SPA; not served when absent. */
  webDistDir?: string | null;
  logLevel?: string;
  /** Where logs go (tests capture them); stdout by default. */
  logStream?: NodeJS.WritableStream;
  now?: () => Date;
  /** AUTOMATE_NETWORKS (CIDR list); the default policy when absent (docs/connector-api.md). */
  automateNetworks?: string | undefined;
  /** Rate limits of the connector API (tests lower them). */
  connectorRateLimits?: ConnectorRoutesOptions['rateLimits'];
  /** Limits of the sync orders (timeout, answer size, rate limit); the defaults otherwise. */
  syncOrders?: Partial<SyncOrderSettings>;
  /** How GET /api/server-ip finds the server's address without PUBLIC_IP (tests replace it). */
  outwardAddress?: () => Promise<string | null>;
  /** CONFIG_VERSIONS_KEEP and _MAX_AGE_DAYS; the defaults otherwise. */
  versionRetention?: VersionRetention;
  /** Worker threads for long work (offload/pool.ts); the process's shared pool otherwise. */
  offload?: Offload;
  /** Which big values leave a batch's transaction; the database's policy otherwise (tests force it). */
  apart?: ApartPolicy;
  /** OFFLOAD_THREADS, BODY_BUDGET_*, STORAGE_QUOTA_MB; the defaults otherwise. */
  fairShare?: Partial<FairShareSettings>;
  /** The memory budget of bodies (tests watch it); one of fairShare.bodyBudget otherwise. */
  bodies?: ByteBudget;
  /** How emails leave (docs/mail.md); none by default (emails stay in the outbox). */
  mailer?: Mailer;
  /** The drive providers' OAuth clients (GOOGLE_DRIVE_*, ONEDRIVE_*); none by default. */
  drive?: DriveEnv;
  /** How long a revocation at the drive's provider may take (tests shorten it); 5 s otherwise. */
  driveRevocationTimeoutMs?: number;
  /** AUDIT_RETENTION_DAYS (shown on the journal's screen); 400 otherwise. */
  auditRetentionDays?: number;
  /** HISTORY_RETENTION_DAYS (shown on the history's screens); off (null) otherwise. */
  historyRetentionDays?: number | null;
  /** The server's life (main.ts stops it at SIGTERM); a new one otherwise. */
  lifecycle?: Lifecycle;
  /** The metrics (main.ts serves them on METRICS_PORT); a registry of this app otherwise. */
  metrics?: ServerMetrics;
  /** SUPPORT_*_URL; none otherwise. */
  supportLinks?: TSupportLinks;
  /** Encoded answers that repeat (http/representations.ts; tests watch it); a new store otherwise. */
  representations?: RepresentationStore;
  /** How often an event stream re-asks its session and pings (features/live); 25 s otherwise. */
  liveHeartbeatMs?: number;
  /** One configuration write of an installation at a time (tests hold it); a new gate otherwise. */
  configWrites?: ConfigWriteGate;
  /** The CSV exports running at once per installation (tests hold places). */
  exportSlots?: ExportSlots;
}

/** Without SMTP_URL: emails are kept in the outbox, « Non envoyé : aucun serveur d'envoi configuré ». */
export const NO_MAILER: Mailer = {
  transport: null,
  from: 'Console Synchro <synchro@localhost>',
  publicUrl: 'http://localhost:5000',
};

// A number means "trust that many proxy hops" (proxy-addr's function form).
const trustProxyOption = (value: false | number | string) =>
  typeof value === 'number' ? (_address: string, hop: number) => hop < value : value;

/**
 * What every feature's routes receive, from the app's dependencies (the defaults where absent).
 * bench/delivery/layers.ts builds its layered apps on it.
 */
export function createAppContext(deps: AppDeps): AppContext {
  const fairShare = { ...DEFAULT_FAIR_SHARE, ...deps.fairShare };
  const offload = deps.offload ?? sharedOffloadPool();
  return {
    db: deps.db,
    sessionSecret: deps.sessionSecret,
    publicIp: deps.publicIp,
    now: deps.now ?? (() => new Date()),
    configs: new ConfigCache(200, offload, fairShare.configCacheBytes),
    versionRetention: deps.versionRetention ?? DEFAULT_VERSION_RETENTION,
    mailer: deps.mailer ?? NO_MAILER,
    drive: {
      clients: deps.drive ?? { google: null, onedrive: null },
      publicUrl: (deps.mailer ?? NO_MAILER).publicUrl,
      key: sealKey(deps.sessionSecret, 'drive-tokens'),
      revocationTimeoutMs: deps.driveRevocationTimeoutMs ?? REVOCATION_TIMEOUT_MS,
    },
    auditRetentionDays: deps.auditRetentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS,
    historyRetentionDays: deps.historyRetentionDays ?? null,
    // Loopback is allowed by default for the demo on the embedded database only (its simulator
    // runs on this machine); any other installation needs AUTOMATE_NETWORKS.
    automateAddresses: createAutomateAddressPolicy({
      networks: deps.automateNetworks,
      loopbackSyncId: deps.db.kind === 'pglite' ? DEMO_SYNC_ID : null,
    }),
    offload,
    apart: deps.apart ?? apartPolicyFor(deps.db.kind),
    bodies: deps.bodies ?? new ByteBudget(fairShare.bodyBudget),
    storageQuotaBytes: fairShare.storageQuotaBytes,
    lifecycle: deps.lifecycle ?? createLifecycle(),
    metrics: deps.metrics ?? createMetrics({ db: deps.db, perInstallation: false, processMetrics: false }),
    supportLinks: deps.supportLinks ?? {},
    representations: deps.representations ?? new RepresentationStore(),
    live: createLiveHub(deps.db),
    liveHeartbeatMs: deps.liveHeartbeatMs ?? HEARTBEAT_MS,
    configWrites: deps.configWrites ?? createConfigWriteGate(),
    exports: deps.exportSlots ?? new ExportSlots(),
  };
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const logger: FastifyServerOptions['logger'] =
    deps.logLevel === 'silent' && !deps.logStream
      ? false
      : loggerOptions(deps.logLevel ?? 'info', deps.logStream);
  const app = Fastify({
    logger,
    trustProxy: trustProxyOption(deps.trustProxy ?? false),
    bodyLimit: BODY_LIMITS.default,
    // A path parameter longer than ids ever are reaches its route, which answers 404 (an unknown
    // id); past 2 048 characters, and for a bad percent-encoding, routerErrors answers the same.
    routerOptions: { maxParamLength: 2048 },
    frameworkErrors: routerErrors,
    // One line per request instead of fastify's two (http/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    // Stopping: requests still arriving get the API's own 503 (http/stopping.ts), not fastify's.
    return503OnClosing: false,
  });
  installJsonBodyParser(app);
  const ctx = createAppContext(deps);
  await enableSessionCache(ctx.db);

  installRequestLog(app, ctx.metrics);
  // Stopping: each answer closes its connection, so that kept-alive connections do not hold the
  // stop until their keep-alive timeout (main.ts).
  app.addHook('onSend', (_request, reply, _payload, done) => {
    if (ctx.lifecycle.stopping) void reply.header('Connection', 'close');
    done();
  });
  // app.close() (main.ts at SIGTERM, tests) stops the lifecycle first: long-lived answers that
  // watch ctx.lifecycle.signal end themselves instead of holding the close (docs/server.md).
  app.addHook('preClose', async () => ctx.lifecycle.stop());
  refuseWhileStopping(app, ctx.lifecycle);
  installErrorHandling(app);
  installRequestGuards(app, { allowedOrigins: deps.allowedOrigins ?? [] });
  installSessionGuard(app);
  installBodyLimits(app);
  await app.register(fastifyCookie);
  await installCompression(app);

  healthRoutes(app, ctx);
  liveRoutes(app, ctx);
  authRoutes(app, ctx);
  userRoutes(app, ctx);
  dashboardRoutes(app, ctx);
  serverIpRoutes(app, ctx, deps.outwardAddress);
  syncAutomateRoutes(app, ctx, deps.syncOrders);
  configurationRoutes(app, ctx);
  debugRoutes(app, ctx);
  importHistoryRoutes(app, ctx);
  transactionLogsRoutes(app, ctx);
  mailRoutes(app, ctx);
  driveRoutes(app, ctx);
  configurationHistoryRoutes(app, ctx);
  auditRoutes(app, ctx);
  connectorRoutes(app, ctx, { rateLimits: deps.connectorRateLimits });
  connectorDocsRoutes(app);

  const spa = hasBuiltSpa(deps.webDistDir) ? deps.webDistDir : null;
  if (spa) {
    await serveSpa(app, spa);
    serveAssetsFromMemory(app, spa);
  }

  // Pages of the SPA: `/` and every client route (the page depends on the session cookie: spaPage).
  const sendPage = (request: FastifyRequest, reply: FastifyReply, dir: string) => {
    void reply.header('Cache-Control', 'no-cache').header('Vary', 'Cookie');
    return reply.sendFile(spaPage(dir, request.url, readSessionToken(request) !== undefined));
  };
  if (spa) app.get('/', (request, reply) => sendPage(request, reply, spa));
  app.setNotFoundHandler(async (request, reply) => {
    if (spa && isSpaPage(request)) return sendPage(request, reply, spa);
    return sendNotFound(request, reply);
  });
  return app;
}
