import type { TSupportLinks } from '@synchro/contracts';
import type { VersionRetention } from './config/env.ts';
import type { Lifecycle } from './lifecycle.ts';
import type { LiveHub } from './live/hub.ts';
import type { ServerMetrics } from './metrics/registry.ts';
import type { Db } from './db/types.ts';
import type { ApartPolicy } from './domain/blobs.ts';
import type { ByteBudget } from './offload/byte-budget.ts';
import type { ConfigCache } from './domain/config-cache.ts';
import type { ExportSlots } from './domain/export-slots.ts';
import type { DriveSettings } from './domain/drive-links.ts';
import type { Mailer } from './domain/mail-sender.ts';
import type { AutomateAddressPolicy } from './network/automate-address.ts';
import type { Offload } from './offload/pool.ts';
import type { ConfigWriteGate } from './domain/config-write-gate.ts';
import type { RepresentationStore } from './domain/representation-store.ts';

/** What every feature's routes receive: the database, the clock and the server's settings. */
export interface AppContext {
  db: Db;
  /** HMAC key of session tokens. */
  sessionSecret: string;
  /** Answer of GET /api/server-ip; undefined until configured. */
  publicIp: string | undefined;
  now: () => Date;
  /** Parsed configurations by installation and version. */
  configs: ConfigCache;
  /** The addresses an automate may register and receive orders at (AUTOMATE_NETWORKS). */
  automateAddresses: AutomateAddressPolicy;
  /** How long old configuration versions are kept (CONFIG_VERSIONS_*). */
  versionRetention: VersionRetention;
  /** Long work on big inputs, in worker threads (offload/pool.ts). */
  offload: Offload;
  /** Which big values leave a batch's transaction (domain/blobs.ts). */
  apart: ApartPolicy;
  /** Bytes of big request bodies held at once, per installation and in all (offload/byte-budget.ts). */
  bodies: ByteBudget;
  /** Storage quota of an installation without its own (STORAGE_QUOTA_MB), bytes. */
  storageQuotaBytes: number;
  /** The relay (null without SMTP_URL), the sender address and the console's public address. */
  mailer: Mailer;
  /** The drive providers' OAuth clients, the redirect address, the key tokens are sealed with. */
  drive: DriveSettings;
  /** AUDIT_RETENTION_DAYS, shown on the journal's screen (the retention runs in main.ts). */
  auditRetentionDays: number;
  /** HISTORY_RETENTION_DAYS (null: off), shown on the history's and the trace's screens. */
  historyRetentionDays: number | null;
  /** Stopping or not (SIGTERM): /readyz, long-lived answers. */
  lifecycle: Lifecycle;
  /** Counters and histograms of the server (metrics/registry.ts). */
  metrics: ServerMetrics;
  /** The live events of the console (features/live, docs/live.md). */
  live: LiveHub;
  /** How often an event stream re-asks its session and pings (HEARTBEAT_MS of features/live). */
  liveHeartbeatMs: number;
  /** One configuration write of an installation at a time (domain/config-write-gate.ts). */
  configWrites: ConfigWriteGate;
  /** The CSV exports of each installation running at once (domain/export-slots.ts). */
  exports: ExportSlots;
  /** The support links of Général (SUPPORT_*_URL). */
  supportLinks: TSupportLinks;
  /** Encoded answers that repeat, per installation (domain/representation-store.ts). */
  representations: RepresentationStore;
}
