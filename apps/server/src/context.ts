import type { Db } from './db/types.ts';

/** What every feature's routes receive: the database, the clock and the server's settings. */
export interface AppContext {
  db: Db;
  /** HMAC key of session tokens. */
  sessionSecret: string;
  /** Answer of GET /api/server-ip; undefined until configured. */
  publicIp: string | undefined;
  now: () => Date;
}
