/**
 * The limits of the connector API (docs/connector-api.md, « Limites »): per route, the largest
 * body and the rate limit (requests per installation and minute). Item counts and field sizes are
 * the contract's (`CONNECTOR_LIMITS`, @synchro/contracts).
 */

const KB = 1024;
const MB = 1024 * 1024;

/** A route group with its own counter. */
export type ConnectorBucket =
  | 'automate'
  | 'configuration-read'
  | 'configuration-write'
  | 'import-records'
  | 'import-queue'
  | 'import-result'
  | 'transactions'
  | 'drive-token';

/** Requests per installation in one window, for each route group. */
export type ConnectorRateLimits = Record<ConnectorBucket, number>;

/** Length of a rate-limit window. */
export const RATE_WINDOW_MS = 60_000;

/**
 * Per minute and installation. Far above what a connector does in normal work (a report every
 * few minutes, one sync at a time), so that a backlog is caught up at full speed (3 000 batches a
 * minute is 25 000 import records a second, beyond what the server ingests); what they stop is a
 * runaway client looping on one route.
 */
export const DEFAULT_RATE_LIMITS: ConnectorRateLimits = {
  automate: 60,
  'configuration-read': 120,
  'configuration-write': 120,
  'import-records': 3000,
  'import-queue': 600,
  'import-result': 6000,
  transactions: 3000,
  /** A token lasts an hour and is given again while it has 5 minutes left. */
  'drive-token': 120,
};

/** Largest request bodies, in bytes (a 413 beyond). */
export const BODY_LIMITS = {
  /** `{port, version, machineName, ip}`. */
  automate: 16 * KB,
  /** `Data` may be 50 MB: the whole configuration is limited to 60 MB. */
  configurationPatch: 64 * MB,
  /**
   * One record of the largest size always fits: `Enreg` 50 MB (a little more once escaped in
   * JSON) and a `Fichier` of 25 MB (33.4 MB in base64). Batches of big records are split by the
   * sender.
   */
  importRecords: 96 * MB,
  /** `Log` (1 000 000 characters) and a `Fichier` of 25 MB. */
  importResult: 40 * MB,
  /** 1 000 transactions of 32 KB on average. */
  transactions: 32 * MB,
  /** Routes without a body (GET). */
  none: 16 * KB,
} as const;

/** Largest total of `Enreg` in one queue answer (at least one record is always given). */
export const QUEUE_MAX_ENREG_BYTES = 32 * MB;
