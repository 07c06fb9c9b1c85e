/**
 * The simulator: one automate service and its connector for one installation. It listens for
 * sync orders, reports itself to the console, and plays each accepted order as a sync through
 * the connector API. `startAutomateSim` runs it in-process; `cli.ts` runs it as a process.
 */
import { hostname } from 'node:os';
import { ConnectorApiClient } from './api-client.ts';
import { buildAnswer, type AnswerArtefacts, type OrderAnswer } from './answer-builder.ts';
import { IdFactory, runTag } from './generators/ids.ts';
import { startHeartbeat, type Heartbeat } from './heartbeat.ts';
import { createLogger, type LogSink } from './log.ts';
import { acceptedLines, BUSY_LINES, REPLAYED_ORDER_REASON, SYNC_TYPE_LABEL } from './messages.ts';
import { decodeOrder, type SyncType } from './order-codec.ts';
import { startOrderServer, type OrderReply } from './order-server.ts';
import { Random, randomSeed } from './random.ts';
import { DEFAULT_RETRY, sleep, type RetryPolicy } from './retry.ts';
import { playSync, type SyncReport } from './sync-player.ts';

export interface AutomateSimOptions {
  /** The console's base URL. */
  server: string;
  syncId: string;
  /** The installation's connector token. */
  token: string;
  /** Port for the orders; 0 (default) takes a free one. */
  port?: number;
  /** Listening address (default 0.0.0.0, as the real service). */
  host?: string;
  /** The address reported to the console; by default the console takes the source address. */
  ip?: string;
  /** Seconds between two reports (default 300). */
  reportIntervalSeconds?: number;
  /** Delay before answering an order. */
  latencyMs?: number;
  /** Probability that an accepted sync fails (0..1). */
  failRate?: number;
  /** Answer every order RetSync 0 with this message. */
  refuse?: string;
  /** Accept connections and never answer. */
  hang?: boolean;
  /** Never report to the console. */
  offline?: boolean;
  verbose?: boolean;
  /** Seed of the generated data (random by default). */
  seed?: number;
  /** Probability of each RetInfo artefact (default 0.3). */
  artefactRate?: number;
  recordsPerSync?: number;
  transactionsPerSync?: number;
  machineName?: string;
  automateVersion?: string;
  connectorVersion?: string;
  /** Retries of the connector API calls. */
  retry?: RetryPolicy;
  /** Time limit of one connector API call (default 30 s). */
  apiTimeoutMs?: number;
  /** Where the log lines go (default: stdout). */
  logSink?: LogSink;
  /** Hears each finished sync. */
  onSyncDone?: (report: SyncReport) => void;
}

export interface RunningAutomateSim {
  /** The port the orders are listened for on. */
  port: number;
  /** Resolves when no order is being played. */
  idle(): Promise<void>;
  /** Stops reporting and listening; calls in flight are interrupted. */
  stop(): Promise<void>;
}

export const DEFAULT_AUTOMATE_VERSION = '6.11.23.9';
export const DEFAULT_CONNECTOR_VERSION = '6.19.4';
export const DEFAULT_REPORT_INTERVAL_SECONDS = 300;
/** After a failed report the next one comes sooner than the interval. */
const RETRY_REPORT_AFTER_MS = 15_000;
const REMEMBERED_ORDERS = 1000;

export async function startAutomateSim(options: AutomateSimOptions): Promise<RunningAutomateSim> {
  const log = createLogger({ verbose: options.verbose ?? false, sink: options.logSink });
  const seed = options.seed ?? randomSeed();
  const dataRng = new Random(seed);
  const answerRng = new Random(seed ^ 0x5bd1e995);
  const abort = new AbortController();
  const client = new ConnectorApiClient({
    server: options.server,
    token: options.token,
    log,
    retry: options.retry ?? DEFAULT_RETRY,
    timeoutMs: options.apiTimeoutMs,
    signal: abort.signal,
  });
  const ids = new IdFactory(runTag(Date.now()), dataRng.int(100, 900));
  const machineName = options.machineName ?? hostname().toUpperCase();
  const automateVersion = options.automateVersion ?? DEFAULT_AUTOMATE_VERSION;
  const artefactRate = options.artefactRate ?? 0.3;
  const seen: string[] = [];
  let reserved = false;
  let current: Promise<void> | null = null;

  const artefacts = (): AnswerArtefacts => ({
    doubleEscapedApos: answerRng.chance(artefactRate),
    lineMarkers: answerRng.chance(artefactRate),
    connectorText: answerRng.chance(artefactRate),
  });
  const reply = (answer: OrderAnswer, withArtefacts = true, after?: OrderReply['after']): OrderReply => ({
    xml: buildAnswer(answer, withArtefacts ? artefacts() : {}),
    after,
  });

  const runSync = (type: SyncType) => {
    const started = Date.now();
    log.info('sync', `synchronisation « ${SYNC_TYPE_LABEL[type]} » commencée`);
    current = playSync(type, {
      client,
      log,
      rng: dataRng,
      ids,
      failRate: options.failRate ?? 0,
      recordsPerSync: options.recordsPerSync,
      transactionsPerSync: options.transactionsPerSync,
      automateVersion,
      connectorVersion: options.connectorVersion ?? DEFAULT_CONNECTOR_VERSION,
    })
      .then((report) => {
        const queue = report.queue
          ? `${report.queue.imported} importés et ${report.queue.rejected} rejetés de la file`
          : 'file non lue';
        const steps =
          report.failedSteps.length > 0 ? ` ; étapes en échec : ${report.failedSteps.join(', ')}` : '';
        log.info(
          'sync',
          `synchronisation « ${SYNC_TYPE_LABEL[type]} » ${report.failed ? 'jouée en échec' : 'terminée'} en ${Date.now() - started} ms : ` +
            `${report.recordsSent} enregistrements, ${report.transactionsSent} transactions, ${queue}${steps}`,
        );
        options.onSyncDone?.(report);
      })
      .catch((err: unknown) =>
        log.warn('sync', `synchronisation interrompue : ${err instanceof Error ? err.message : String(err)}`),
      )
      .finally(() => {
        current = null;
        reserved = false;
      });
  };

  const onOrder = (payload: string, from: string): OrderReply => {
    const decoded = decodeOrder(payload, options.syncId);
    if (!decoded.ok) {
      log.warn('order', `ordre de ${from} refusé : ${decoded.reason}`);
      return reply({ retSync: 0, lines: [decoded.reason], requestId: decoded.requestId });
    }
    const { order } = decoded;
    const requestId = order.requestId;
    if (seen.includes(requestId)) {
      log.warn('order', `ordre ${requestId} refusé : déjà reçu`);
      return reply({ retSync: 0, lines: [REPLAYED_ORDER_REASON], requestId });
    }
    seen.push(requestId);
    if (seen.length > REMEMBERED_ORDERS) seen.shift();
    if (options.refuse !== undefined) {
      log.info('order', `ordre ${requestId} (${order.type}) refusé (--refuse)`);
      return reply({ retSync: 0, lines: [options.refuse], requestId }, false);
    }
    if (reserved) {
      log.info('order', `ordre ${requestId} (${order.type}) refusé : une synchronisation est en cours`);
      return reply({ retSync: 0, lines: BUSY_LINES, requestId });
    }
    reserved = true;
    log.info(
      'order',
      `ordre ${requestId} de ${from} accepté : synchronisation « ${SYNC_TYPE_LABEL[order.type]} »`,
    );
    return reply(
      { retSync: 1, lines: acceptedLines(order.type, machineName, answerRng), requestId },
      true,
      (delivered) => {
        if (delivered && !abort.signal.aborted) runSync(order.type);
        else {
          reserved = false;
          log.warn(
            'order',
            `ordre ${requestId} : la réponse n'a pas pu être remise, synchronisation annulée`,
          );
        }
      },
    );
  };

  const orderServer = await startOrderServer({
    port: options.port ?? 0,
    host: options.host ?? '0.0.0.0',
    log,
    latencyMs: options.latencyMs ?? 0,
    hang: options.hang ?? false,
    onOrder,
  });
  log.info(
    'start',
    `automate ${options.syncId} en écoute sur le port ${orderServer.port} (console ${new URL(options.server).origin}, graine ${seed})`,
  );

  let heartbeat: Heartbeat | null = null;
  if (options.offline) {
    log.info('register', 'hors ligne (--offline) : aucun signalement à la console');
  } else {
    heartbeat = startHeartbeat(
      client,
      {
        port: orderServer.port,
        version: automateVersion,
        machineName,
        ...(options.ip !== undefined ? { ip: options.ip } : {}),
      },
      (options.reportIntervalSeconds ?? DEFAULT_REPORT_INTERVAL_SECONDS) * 1000,
      Math.min(
        RETRY_REPORT_AFTER_MS,
        (options.reportIntervalSeconds ?? DEFAULT_REPORT_INTERVAL_SECONDS) * 1000,
      ),
      log,
    );
    await heartbeat.first;
  }

  let stopped: Promise<void> | null = null;
  return {
    port: orderServer.port,
    idle: async () => {
      while (reserved) await (current ?? sleep(10));
    },
    stop: () => {
      stopped ??= (async () => {
        heartbeat?.stop();
        abort.abort();
        await orderServer.close();
        if (current) await current;
        log.info('stop', 'simulateur arrêté');
      })();
      return stopped;
    },
  };
}
