/**
 * Plays one sync through the connector API, as the connector does after the automate accepted an
 * order: read the configuration, import the queued records, post the new records (import syncs)
 * and the transactions, then write Info, DerSynchro and the source statuses. A step that still
 * fails after its retries is logged and the sync goes on with the next one.
 */
import { encodeConnectorText } from '@synchro/config-xml';
import type { ConnectorApiClient } from './api-client.ts';
import {
  MAX_RECORDS_PER_BATCH,
  MAX_TRANSACTIONS_PER_BATCH,
  type TBatchAnswer,
  type TConfigurationPatch,
  type TImportRecord,
  type TInfoPatch,
} from './api-types.ts';
import { connectorStamp } from './connector-time.ts';
import type { GeneratorContext } from './generators/context.ts';
import type { IdFactory } from './generators/ids.ts';
import { lastSyncFigures, lastSyncPatch } from './generators/last-sync.ts';
import { generateImportRecords } from './generators/records.ts';
import { sourceStatuses } from './generators/sources.ts';
import { generateTransactions } from './generators/transactions.ts';
import { consumeImportQueue, type QueueOutcome } from './import-queue.ts';
import { readInstallation, UNKNOWN_INSTALLATION, type Installation } from './installation.ts';
import type { Logger } from './log.ts';
import type { SyncType } from './order-codec.ts';
import type { Random } from './random.ts';

export interface SyncPlayerDeps {
  client: ConnectorApiClient;
  log: Logger;
  rng: Random;
  ids: IdFactory;
  /** Probability that a sync fails (see README: accepted, then played as a failed sync). */
  failRate: number;
  /** New import records of an import sync (default: 8 to 30). */
  recordsPerSync?: number;
  /** Transactions of a sync (default: 1 to 5 per declared terminal, plus one per new record). */
  transactionsPerSync?: number;
  automateVersion: string;
  connectorVersion: string;
  now?: () => number;
}

export interface SyncReport {
  type: SyncType;
  failed: boolean;
  queue: QueueOutcome | null;
  recordsSent: number;
  transactionsSent: number;
  patched: boolean;
  /** Steps that failed after their retries. */
  failedSteps: string[];
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Posts `items` in batches of at most `size`; a batch that fails is logged and skipped, and the
 * step named in `failedSteps`. Returns how many were sent.
 */
async function postInBatches<T>(
  items: readonly T[],
  size: number,
  post: (batch: T[]) => Promise<TBatchAnswer>,
  step: { name: string; label: string; log: Logger; failedSteps: string[] },
): Promise<number> {
  let sent = 0;
  let failed = false;
  for (let start = 0; start < items.length; start += size) {
    const batch = items.slice(start, start + size);
    try {
      const answer = await post(batch);
      sent += batch.length;
      step.log.debug(
        'batch',
        `${step.label} : ${batch.length} envoyés, ${answer.inserted} ajoutés, ${answer.duplicates} déjà reçus`,
      );
    } catch (err) {
      failed = true;
      step.log.warn('batch', `${step.label} : lot de ${batch.length} non envoyé : ${messageOf(err)}`);
    }
  }
  if (failed) step.failedSteps.push(step.name);
  return sent;
}

export async function playSync(type: SyncType, deps: SyncPlayerDeps): Promise<SyncReport> {
  const { client, log, rng } = deps;
  const now = deps.now ?? Date.now;
  const failedSteps: string[] = [];
  const report: SyncReport = {
    type,
    failed: false,
    queue: null,
    recordsSent: 0,
    transactionsSent: 0,
    patched: false,
    failedSteps,
  };

  let installation: Installation = UNKNOWN_INSTALLATION;
  let configRead = false;
  try {
    const config = await client.readConfiguration();
    installation = readInstallation(config.text);
    configRead = true;
    log.debug(
      'sync',
      `configuration version ${config.version}${config.notModified ? ' (inchangée, 304)' : ''}`,
    );
  } catch (err) {
    failedSteps.push('configuration');
    log.warn('sync', `configuration illisible, synchronisation jouée sans elle : ${messageOf(err)}`);
  }

  report.failed = rng.chance(deps.failRate);
  try {
    report.queue = await consumeImportQueue(client, rng, log, { failed: report.failed });
  } catch (err) {
    failedSteps.push('queue');
    log.warn('sync', `file d'import illisible : ${messageOf(err)}`);
  }

  const startMs = now();
  const ctx: GeneratorContext = {
    rng,
    ids: deps.ids,
    zone: installation.zone,
    nowMs: startMs,
    terminals: installation.terminals,
  };
  let records: TImportRecord[] = [];
  if (type === 'I') {
    records = generateImportRecords(ctx, {
      count: deps.recordsPerSync ?? rng.int(8, 30),
      failed: report.failed,
    });
    report.recordsSent = await postInBatches(
      records,
      MAX_RECORDS_PER_BATCH,
      (b) => client.postImportRecords(b),
      {
        name: 'import-records',
        label: 'enregistrements',
        log,
        failedSteps,
      },
    );
  }

  const figures = lastSyncFigures(rng, {
    type,
    failed: report.failed,
    minRecords: records.length + (report.queue ? report.queue.imported + report.queue.rejected : 0),
  });
  const transactions = generateTransactions(ctx, {
    count: deps.transactionsPerSync,
    failed: report.failed,
    durationSeconds: figures.durationSeconds,
    records,
  });
  report.transactionsSent = await postInBatches(
    transactions,
    MAX_TRANSACTIONS_PER_BATCH,
    (b) => client.postTransactions(b),
    { name: 'transactions', label: 'transactions', log, failedSteps },
  );

  const endMs = now();
  const info: TInfoPatch = {
    VersionConnecteur: deps.connectorVersion,
    NuxiAutomateInstall: '1',
    NuxiAutomateLibelle: `Version : ${deps.automateVersion}`,
    DateMAJConfig: connectorStamp(endMs, installation.zone),
  };
  // A connector writes its own path and serial when its configuration has none; the console puts
  // them in its orders. Never when the configuration could not be read: they may well be there.
  if (configRead && installation.exe === '')
    info.Exe = encodeConnectorText('C:\\Program Files\\Synchro\\Connecteur\\Connecteur.exe');
  if (configRead && installation.serial === '')
    info.Serial = `SIM-${rng.hex(4).toUpperCase()}-${rng.hex(4).toUpperCase()}`;
  const patch: TConfigurationPatch = {
    Info: info,
    DerSynchro: lastSyncPatch(type, figures, endMs, installation.zone),
  };
  const sources = sourceStatuses(rng, installation.sources, { failed: report.failed });
  if (sources.length > 0) patch.Sources = sources;
  try {
    await client.patchConfiguration(patch);
    report.patched = true;
  } catch (err) {
    failedSteps.push('configuration-patch');
    log.warn('sync', `dernière synchronisation non écrite : ${messageOf(err)}`);
  }
  return report;
}
