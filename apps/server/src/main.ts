import { buildApp } from './app.ts';
import { startAuditRetention } from './domain/audit-retention.ts';
import { startConfigRetention } from './domain/config-retention-pass.ts';
import { startHistoryRetention } from './domain/history-retention.ts';
import { startMailRetention } from './domain/mail-retention.ts';
import { readEnv } from './config/env.ts';
import { startEmbeddedUpkeep, type EmbeddedUpkeep } from './db/embedded-upkeep.ts';
import { openDatabase } from './db/open.ts';
import { AppError } from './http/errors.ts';
import type { Db } from './db/types.ts';
import { demoLoginUrl, ensureDemoInstallation } from './demo/demo.ts';
import { startDetachedBlobSweep, sweepDetachedBlobs } from './domain/blobs.ts';
import { sweepConfigurationTexts } from './domain/configuration-texts.ts';
import { ConfigCache } from './domain/config-cache.ts';
import { startMailSender, type Mailer, type MailSender } from './domain/mail-sender.ts';
import { smtpTransport } from './mail/transport.ts';
import { localServerUrl, startDemoAutomate, type DemoAutomate } from './demo/demo-automate.ts';
import { startLoopDelayReports } from './offload/loop-delay.ts';
import { createOffloadPool, defaultOffloadThreads } from './offload/pool.ts';
import { WEB_DIST_DIR } from './paths.ts';
import { resolveSessionSecret } from './security/session-secret.ts';
import { hasBuiltSpa } from './static/spa.ts';
import { createLifecycle } from './lifecycle.ts';
import { createMetrics } from './metrics/registry.ts';
import { startMetricsServer } from './metrics/server.ts';
import type { Server } from 'node:http';

const startedAt = Date.now();
/** After SIGTERM, how long connections already open are still read before the server closes. */
const STOP_DRAIN_MS = 500;
const say = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const env = readEnv();
  if (env.databaseUrl && !env.sessionSecret) {
    // Checked before opening anything: no half-started server.
    resolveSessionSecret({ configured: undefined, databaseUrl: env.databaseUrl, dataDir: env.dataDir });
  }
  say(
    env.databaseUrl
      ? 'Base de données : PostgreSQL (DATABASE_URL)'
      : `Base de données embarquée : ${env.dataDir}`,
  );
  const db: Db = await openDatabase({ databaseUrl: env.databaseUrl, dataDir: env.dataDir }).catch(
    (err: unknown) => {
      if (!env.databaseUrl || err instanceof AppError) throw err;
      throw new Error(`connexion à PostgreSQL (DATABASE_URL) impossible : ${(err as Error).message}`);
    },
  );
  const sessionSecret = resolveSessionSecret({
    configured: env.sessionSecret,
    databaseUrl: env.databaseUrl,
    dataDir: env.dataDir,
  });

  // DEMO=0 is carried out on PostgreSQL too (an existing demo installation is suspended).
  const demo =
    env.demo !== 'auto' || !env.databaseUrl
      ? await ensureDemoInstallation(db, env.databaseUrl ? undefined : env.dataDir, env.demo === 'off')
      : null;

  const offload = createOffloadPool({
    threads: env.fairShare.offloadThreads ?? defaultOffloadThreads(),
    queuedPerInstallation: env.fairShare.offloadQueuePerInstallation,
  });
  // Started now, beside the rest of the start: the first big request does not wait for a thread.
  const warming = offload.warm().catch((err: unknown) => {
    say(`Fils de travail non démarrés : ${err instanceof Error ? err.message : String(err)}`);
  });
  const mailer: Mailer = {
    transport: env.mail.smtp ? smtpTransport(env.mail.smtp) : null,
    from: env.mail.from,
    publicUrl: env.mail.publicUrl,
  };
  const lifecycle = createLifecycle();
  const metrics = createMetrics({
    db,
    perInstallation: env.ops.metricsPerInstallation,
    processMetrics: true,
  });
  const app = await buildApp({
    db,
    lifecycle,
    metrics,
    supportLinks: env.ops.supportLinks,
    sessionSecret,
    publicIp: env.publicIp,
    trustProxy: env.trustProxy,
    allowedOrigins: env.allowedOrigins,
    automateNetworks: env.automateNetworks,
    webDistDir: WEB_DIST_DIR,
    logLevel: env.logLevel,
    versionRetention: env.versionRetention,
    offload,
    fairShare: env.fairShare,
    mailer,
    drive: env.drive,
    auditRetentionDays: env.auditRetentionDays,
    historyRetentionDays: env.historyRetentionDays,
  });
  const auditRetention = startAuditRetention(db, env.auditRetentionDays, (deleted) => {
    if (deleted instanceof Error) app.log.error({ err: deleted }, "rétention du journal d'audit impossible");
    else app.log.info({ deleted }, "rétention du journal d'audit");
  });
  // Off unless HISTORY_RETENTION_DAYS is set: nothing of a customer's is deleted unless asked.
  const historyRetention = startHistoryRetention(db, env.historyRetentionDays, (result) => {
    if (result instanceof Error) app.log.error({ err: result }, "rétention de l'historique impossible");
    else if (result.deferred)
      app.log.warn({ historyRetention: result }, "rétention de l'historique reportée : serveur trop chargé");
    else app.log.info({ historyRetention: result }, "rétention de l'historique");
  });
  const mailRetention = startMailRetention(db, env.mailRetentionDays, (deleted) => {
    if (deleted instanceof Error) app.log.error({ err: deleted }, 'rétention des emails impossible');
    else app.log.info({ deleted }, 'rétention des emails');
  });
  const configRetention = startConfigRetention(db, env.versionRetention, (result) => {
    if (result instanceof Error)
      app.log.error({ err: result }, 'rétention des versions de configuration impossible');
    else app.log.info({ configRetention: result }, 'rétention des versions de configuration');
  });
  const blobSweep = startDetachedBlobSweep(
    db,
    () => new Date(),
    (err) => app.log.error({ err }, 'nettoyage des valeurs écrites à part impossible'),
    [sweepDetachedBlobs, sweepConfigurationTexts],
  );
  const loopDelay = startLoopDelayReports(env.loopDelayReportMs, (delay) =>
    app.log.info({ eventLoopDelay: delay }, 'délai de la boucle d’événements'),
  );

  // PGlite has no autovacuum of its own (db/embedded-upkeep.ts).
  const upkeep: EmbeddedUpkeep | null =
    db.kind === 'pglite'
      ? startEmbeddedUpkeep(db, (runs) => {
          if (runs instanceof Error)
            app.log.error({ err: runs }, 'entretien de la base embarquée impossible');
          else app.log.info({ upkeep: runs }, 'entretien de la base embarquée');
        })
      : null;

  let stopping = false;
  let demoAutomate: DemoAutomate | null = null;
  let mailSender: MailSender | null = null;
  let metricsServer: Server | null = null;
  /**
   * SIGTERM (or Ctrl-C): /readyz answers 503, the server stops accepting connections, requests in
   * flight finish (a sync order under way ends with its outcome) for up to SHUTDOWN_TIMEOUT_SECONDS,
   * then the database closes and the process ends with 0 (docs/production.md).
   */
  const stop = async (signal: string) => {
    // Ctrl-C under `npm start` arrives twice (terminal + forwarded by start.mjs): stop once.
    if (stopping) return;
    stopping = true;
    lifecycle.stop();
    say(`\n${signal} reçu : arrêt du serveur...`);
    setTimeout(() => {
      say(`Arrêt forcé : des requêtes duraient encore après ${env.ops.shutdownTimeoutMs / 1000} s.`);
      process.exit(1);
    }, env.ops.shutdownTimeoutMs).unref();
    try {
      await demoAutomate?.stop();
      // The send under way finishes; what the sender had claimed goes back to the outbox.
      await mailSender?.stop();
      // Closing the server also closes the kept-alive connections that look idle, one of which may
      // carry a request already sent and not yet read (found as an ECONNRESET by the graceful-stop
      // test): such a request gets its answer (503, Connection: close) during this wait instead.
      await new Promise((resolve) => setTimeout(resolve, STOP_DRAIN_MS));
      await app.close();
      await new Promise((resolve) => (metricsServer ? metricsServer.close(resolve) : resolve(null)));
      loopDelay.stop();
      await blobSweep.stop();
      await offload.close();
      await upkeep?.stop();
      await auditRetention.stop();
      await historyRetention.stop();
      await mailRetention.stop();
      await configRetention.stop();
    } finally {
      await db.close();
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  try {
    await app.listen({ port: env.port, host: env.host });
  } catch (err) {
    await app.close().catch(() => {});
    loopDelay.stop();
    await blobSweep.stop();
    await offload.close();
    await upkeep?.stop();
    await auditRetention.stop();
    await historyRetention.stop();
    await mailRetention.stop();
    await configRetention.stop();
    await db.close();
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(
        `le port ${env.port} est déjà utilisé par un autre programme : arrêtez-le ou choisissez un autre PORT.`,
      );
    }
    throw err;
  }
  await warming;
  if (env.ops.metricsPort !== null && !stopping) {
    metricsServer = await startMetricsServer(metrics.registry, env.ops.metricsPort, env.host);
    say(`Mesures Prometheus : http://${env.host}:${env.ops.metricsPort}/metrics`);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : env.port;
  const shownHost = ['127.0.0.1', '0.0.0.0', '::', '::1'].includes(env.host) ? 'localhost' : env.host;
  const baseUrl = `http://${shownHost}:${port}`;

  say('');
  say(`Console Synchro démarrée en ${((Date.now() - startedAt) / 1000).toFixed(1)} s : ${baseUrl}`);
  if (!hasBuiltSpa(WEB_DIST_DIR))
    say(`(interface web non construite : ${WEB_DIST_DIR} absent ; seule l'API répond)`);
  if (demo) {
    say('');
    say(demo.created ? 'Installation de démonstration créée :' : 'Installation de démonstration :');
    say(`  ID de synchronisation : ${demo.syncId}`);
    if (demo.clientId) {
      say(`  ID Client             : ${demo.clientId}`);
      say(`  Connexion             : ${demoLoginUrl(baseUrl, demo)}`);
    } else {
      say("  ID Client             : affiché lors de la création de l'installation.");
    }
  }
  say(
    mailer.transport
      ? `Emails : envoyés par ${mailer.transport.relay} (liens vers ${mailer.publicUrl})`
      : "Emails : aucun serveur d'envoi (SMTP_URL) ; ils restent lisibles dans « Emails envoyés » (Complément)",
  );
  if (!stopping) {
    mailSender = startMailSender({
      db,
      mailer,
      configs: new ConfigCache(200, offload, env.fairShare.configCacheBytes),
      log: (level, message, details) => app.log[level](details ?? {}, message),
    });
  }
  say('');
  // The demo's automate (embedded database only: its loopback address is allowed there).
  if (demo && !env.databaseUrl && env.demoAutomate && !stopping) {
    demoAutomate = await startDemoAutomate({
      db,
      syncId: demo.syncId,
      serverUrl: localServerUrl(env.host, port),
      say,
      verbose: ['info', 'debug', 'trace'].includes(env.logLevel),
    }).catch((err: unknown) => {
      // The console works without it: the sync buttons then say why they cannot.
      say(`Simulateur d'automate non démarré : ${err instanceof Error ? err.message : String(err)}`);
      return null;
    });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`Démarrage impossible : ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
