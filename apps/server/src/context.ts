import type { VersionRetention } from './config/env.ts';
import type { Db } from './db/types.ts';
import type { ConfigCache } from './domain/config-cache.ts';
import type { AutomateAddressPolicy } from './network/automate-address.ts';

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
  /** AUDIT_RETENTION_DAYS, shown on the journal's screen (the retention runs in main.ts). */
  auditRetentionDays: number;
}
