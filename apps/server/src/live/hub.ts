import pg from 'pg';
import type { Db } from '../db/types.ts';

/**
 * The live events of the console (docs/live.md): what changed for an installation, told to the
 * open event streams of its sessions. One hub per server; on PostgreSQL every process publishes
 * with NOTIFY and hears every process (its own included) through one LISTEN connection, then fans
 * out in memory; on the embedded database (one process) the hub delivers in process.
 */
export type LiveEventType = 'automate' | 'last-sync' | 'records' | 'record-state' | 'transactions' | 'config';

export interface LiveEvent {
  type: LiveEventType;
  /** records, transactions: how many arrived. */
  count?: number;
  /** config: the version now stored. */
  version?: number;
}

export type LiveListener = (event: LiveEvent) => void;

export const LIVE_CHANNEL = 'synchro_live';

/** NOTIFY payloads are limited to 8 000 bytes; ours are a few dozen. */
interface Wire extends LiveEvent {
  i: string;
}

export interface LiveHub {
  /** After the change is committed: tells every stream of the installation, in every process. */
  publish(installationId: string, event: LiveEvent): void;
  subscribe(installationId: string, listener: LiveListener): () => void;
  /** Open streams (metrics, bench). */
  readonly size: number;
  close(): Promise<void>;
}

export function createLiveHub(db: Db): LiveHub {
  const byInstallation = new Map<string, Set<LiveListener>>();
  let size = 0;
  const deliver = (installationId: string, event: LiveEvent) => {
    const listeners = byInstallation.get(installationId);
    if (!listeners) return;
    for (const l of listeners) l(event);
  };

  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  const listen = db.kind === 'postgres' ? (db.connectionString ?? null) : null;
  const connect = () => {
    if (!listen || closed) return;
    const c = new pg.Client({ connectionString: listen, keepAlive: true });
    client = c;
    const again = () => {
      if (client !== c) return;
      client = null;
      c.removeAllListeners('notification');
      void c.end().catch(() => {});
      if (!closed) retry = setTimeout(connect, 1_000).unref();
    };
    c.on('error', again);
    c.on('end', again);
    c.on('notification', (n) => {
      if (n.channel !== LIVE_CHANNEL || !n.payload) return;
      try {
        const { i, ...event } = JSON.parse(n.payload) as Wire;
        deliver(i, event);
      } catch {
        // Not ours.
      }
    });
    c.connect()
      .then(() => c.query(`LISTEN ${LIVE_CHANNEL}`))
      .catch(again);
  };
  connect();

  return {
    publish(installationId, event) {
      if (!listen) {
        deliver(installationId, event);
        return;
      }
      const wire: Wire = { i: installationId, ...event };
      db.query('SELECT pg_notify($1, $2)', [LIVE_CHANNEL, JSON.stringify(wire)]).catch(() => {
        // A lost notice costs a refresh the streams' reconnect makes anyway.
      });
    },
    subscribe(installationId, listener) {
      let set = byInstallation.get(installationId);
      if (!set) byInstallation.set(installationId, (set = new Set()));
      set.add(listener);
      size++;
      return () => {
        if (!set.delete(listener)) return;
        size--;
        if (set.size === 0) byInstallation.delete(installationId);
      };
    },
    get size() {
      return size;
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
