import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { readDriveEnv, readMailEnv, requirePublicUrl, type DriveEnv, type MailEnv } from './mail-env.ts';
import { readOpsEnv, type OpsEnv } from './ops-env.ts';

/** Everything the server and the admin command read from the environment (docs/server.md). */
export interface ServerEnv {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  sessionSecret: string | undefined;
  publicIp: string | undefined;
  logLevel: string;
  /**
   * DEMO: 'on' (`1`) creates the demo installation on PostgreSQL too; 'auto' (unset) on the
   * embedded database only; 'off' (`0`) creates none and suspends an existing one (demo/demo.ts).
   */
  demo: DemoSetting;
  /** fastify `trustProxy`: honour X-Forwarded-* from these proxies (a hop count or addresses). */
  trustProxy: false | number | string;
  /** Extra origins allowed to send mutating requests (a dev server on another port). */
  allowedOrigins: string[];
  /** Networks the automate may register at and receive orders on (CIDR list; default policy when unset). */
  automateNetworks: string | undefined;
  /** Start the automate simulator for the demo installation (embedded database); `DEMO_AUTOMATE=0` stops it. */
  demoAutomate: boolean;
  /** CONFIG_VERSIONS_KEEP and CONFIG_VERSIONS_MAX_AGE_DAYS (domain/config-retention.ts). */
  versionRetention: VersionRetention;
  /** Sharing the server fairly (docs/server.md « Partage équitable »). */
  fairShare: FairShareSettings;
  /** Event-loop delay reported in the logs every… (LOOP_DELAY_REPORT_SECONDS, default 60). */
  loopDelayReportMs: number;
  /** SMTP_URL, SMTP_USER, SMTP_PASSWORD, SMTP_CA_FILE, MAIL_FROM, PUBLIC_URL (config/mail-env.ts). */
  mail: MailEnv;
  /** GOOGLE_DRIVE_* and ONEDRIVE_*: the drive providers' OAuth clients (config/mail-env.ts). */
  drive: DriveEnv;
  /** AUDIT_RETENTION_DAYS (domain/audit-retention.ts): audit rows older than this are deleted. */
  auditRetentionDays: number;
  /**
   * HISTORY_RETENTION_DAYS (domain/history-retention.ts): records and transactions older than this
   * are deleted. Unset (the default): null, nothing is deleted.
   */
  historyRetentionDays: number | null;
  /**
   * MAIL_RETENTION_DAYS (domain/mail-retention.ts, default 90): finished emails of the outbox
   * (sent, failed, kept unsent) written longer ago than this are deleted; emails still to send never.
   */
  mailRetentionDays: number;
  /** METRICS_*, SHUTDOWN_TIMEOUT_SECONDS, SUPPORT_*_URL (config/ops-env.ts). */
  ops: OpsEnv;
}

/**
 * OFFLOAD_THREADS, OFFLOAD_QUEUE_PER_INSTALLATION, BODY_BUDGET_MB, BODY_BUDGET_PER_INSTALLATION_MB,
 * STORAGE_QUOTA_MB, CONFIG_CACHE_MB.
 */
export interface FairShareSettings {
  /** Worker threads for long work; null: all cores but one, at most four. */
  offloadThreads: number | null;
  /** Tasks of one installation waiting for a worker thread; beyond: 503 (offload/fair-queue.ts). */
  offloadQueuePerInstallation: number;
  /** Bytes of big request bodies held at once, in all and per installation. */
  bodyBudget: { total: number; perInstallation: number };
  /** Storage quota of an installation without its own, bytes. */
  storageQuotaBytes: number;
  /** Parsed configurations kept in memory, bytes (domain/config-cache.ts). */
  configCacheBytes: number;
}

const MB = 1024 * 1024;

export const DEFAULT_FAIR_SHARE: FairShareSettings = {
  offloadThreads: null,
  offloadQueuePerInstallation: 16,
  bodyBudget: { total: 256 * MB, perInstallation: 128 * MB },
  // 50 Go: years of a large installation's records with their documents.
  storageQuotaBytes: 50 * 1024 * MB,
  configCacheBytes: 256 * MB,
};

export type DemoSetting = 'on' | 'off' | 'auto';

/**
 * How long old configuration versions are kept: while among the newest `keep` of their
 * installation, younger than `maxAgeDays`, and within `maxBytes` of stored texts, the newest first
 * (domain/config-retention.ts).
 */
export interface VersionRetention {
  keep: number;
  maxAgeDays: number;
  /** Stored size of an installation's version texts (as PostgreSQL keeps them, compressed). */
  maxBytes: number;
}

export const DEFAULT_VERSION_RETENTION: VersionRetention = {
  keep: 50,
  maxAgeDays: 90,
  maxBytes: 256 * 1024 * 1024,
};

const nonEmpty = (v: string | undefined) => (v && v.trim() !== '' ? v.trim() : undefined);

const TRUST_PROXY_WORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyEntry(entry: string): boolean {
  if (TRUST_PROXY_WORDS.has(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: off, a hop count (the proxies in front of the server), or the proxies' addresses
 * and networks. `true` (believe every X-Forwarded-For, written by anyone) is refused.
 */
export function parseTrustProxy(v: string | undefined): false | number | string {
  const value = nonEmpty(v);
  if (!value || value === 'false' || value === '0') return false;
  if (value.toLowerCase() === 'true') {
    throw new Error(
      'TRUST_PROXY=true refusé : tout client pourrait alors choisir son adresse (X-Forwarded-For). ' +
        'Indiquez le nombre de proxys devant le serveur (ex. 1) ou leurs adresses (ex. 10.0.0.5,10.1.0.0/16). ' +
        '(TRUST_PROXY=true is refused: give the number of proxies or their addresses.)',
    );
  }
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((e) => e.trim());
  const wrong = entries.filter((e) => !isProxyEntry(e));
  if (wrong.length > 0) {
    throw new Error(
      `TRUST_PROXY invalide : ${wrong.map((e) => (e === '' ? 'entrée vide' : `« ${e} »`)).join(', ')} (attendu : un nombre de proxys, ` +
        'ou des adresses IP ou réseaux CIDR séparés par des virgules, ou loopback, linklocal, uniquelocal).',
    );
  }
  return entries.join(',');
}

const DEMO_WORDS: Record<string, DemoSetting> = {
  '1': 'on',
  true: 'on',
  on: 'on',
  oui: 'on',
  yes: 'on',
  '0': 'off',
  false: 'off',
  off: 'off',
  non: 'off',
  no: 'off',
};

function parseDemo(v: string | undefined): DemoSetting {
  const value = nonEmpty(v);
  if (value === undefined) return 'auto';
  const setting = DEMO_WORDS[value.toLowerCase()];
  if (!setting)
    throw new Error(
      `DEMO invalide : ${value} (attendu : 1 pour créer l'installation de démonstration, 0 pour l'arrêter).`,
    );
  return setting;
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1)
    throw new Error(`${name} invalide : ${raw} (attendu : un nombre entier supérieur ou égal à 1).`);
  return Number(raw);
}

/**
 * CONFIG_VERSIONS_KEEP (default 50), CONFIG_VERSIONS_MAX_AGE_DAYS (default 90) and
 * CONFIG_VERSIONS_MAX_MB (default 256).
 */
export function readVersionRetention(env: NodeJS.ProcessEnv): VersionRetention {
  const d = DEFAULT_VERSION_RETENTION;
  return {
    keep: positiveInteger(env, 'CONFIG_VERSIONS_KEEP', d.keep),
    maxAgeDays: positiveInteger(env, 'CONFIG_VERSIONS_MAX_AGE_DAYS', d.maxAgeDays),
    maxBytes: positiveInteger(env, 'CONFIG_VERSIONS_MAX_MB', d.maxBytes / (1024 * 1024)) * 1024 * 1024,
  };
}

export function readFairShare(env: NodeJS.ProcessEnv): FairShareSettings {
  const d = DEFAULT_FAIR_SHARE;
  const total = positiveInteger(env, 'BODY_BUDGET_MB', d.bodyBudget.total / MB) * MB;
  const perInstallation =
    positiveInteger(env, 'BODY_BUDGET_PER_INSTALLATION_MB', d.bodyBudget.perInstallation / MB) * MB;
  return {
    offloadThreads: env.OFFLOAD_THREADS?.trim() ? positiveInteger(env, 'OFFLOAD_THREADS', 1) : null,
    offloadQueuePerInstallation: positiveInteger(
      env,
      'OFFLOAD_QUEUE_PER_INSTALLATION',
      d.offloadQueuePerInstallation,
    ),
    bodyBudget: { total, perInstallation },
    storageQuotaBytes: positiveInteger(env, 'STORAGE_QUOTA_MB', d.storageQuotaBytes / MB) * MB,
    configCacheBytes: positiveInteger(env, 'CONFIG_CACHE_MB', d.configCacheBytes / MB) * MB,
  };
}

export function readEnv(env: NodeJS.ProcessEnv = process.env): ServerEnv {
  const port = Number(nonEmpty(env.PORT) ?? 5000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT invalide : ${env.PORT} (attendu : un entier entre 0 et 65535).`);
  }
  const mail = readMailEnv(env, port);
  const drive = readDriveEnv(env);
  requirePublicUrl(env, mail, drive, port);
  return {
    port,
    host: nonEmpty(env.HOST) ?? '127.0.0.1',
    dataDir: resolve(nonEmpty(env.DATA_DIR) ?? './data'),
    databaseUrl: nonEmpty(env.DATABASE_URL),
    sessionSecret: nonEmpty(env.SESSION_SECRET),
    publicIp: nonEmpty(env.PUBLIC_IP),
    logLevel: nonEmpty(env.LOG_LEVEL) ?? 'info',
    demo: parseDemo(env.DEMO),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    allowedOrigins: (nonEmpty(env.ALLOWED_ORIGINS) ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    automateNetworks: nonEmpty(env.AUTOMATE_NETWORKS),
    demoAutomate: !['0', 'false', 'non'].includes((nonEmpty(env.DEMO_AUTOMATE) ?? '1').toLowerCase()),
    versionRetention: readVersionRetention(env),
    fairShare: readFairShare(env),
    loopDelayReportMs: positiveInteger(env, 'LOOP_DELAY_REPORT_SECONDS', 60) * 1000,
    mail,
    drive,
    auditRetentionDays: positiveInteger(env, 'AUDIT_RETENTION_DAYS', 400),
    historyRetentionDays: env.HISTORY_RETENTION_DAYS?.trim()
      ? positiveInteger(env, 'HISTORY_RETENTION_DAYS', 1)
      : null,
    mailRetentionDays: positiveInteger(env, 'MAIL_RETENTION_DAYS', 90),
    ops: readOpsEnv(env),
  };
}
