import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../db/types.ts';

/**
 * The server's metrics (Prometheus, prom-client), scraped on METRICS_PORT only (metrics/server.ts,
 * docs/production.md). Labels never carry a secret, a client id or a token; an installation's sync
 * id only with METRICS_PER_INSTALLATION=1 (`installation`, else « all »).
 */
export interface ServerMetrics {
  readonly registry: Registry;
  /** One answered request: its route template (never the raw URL), method, status, seconds. */
  request(route: string, method: string, status: number, seconds: number): void;
  /** A connector batch answered: `accepted`, or refused with its error code. */
  connectorBatch(kind: BatchKindName, outcome: string, syncId: string | null): void;
  /** Rows of connector batches: inserted, duplicate, or refused (the items of a refused batch). */
  connectorRows(
    kind: BatchKindName,
    outcome: 'inserted' | 'duplicate' | 'refused',
    count: number,
    syncId: string | null,
  ): void;
  /** A sync order's outcome (sync-automate). */
  syncOrder(outcome: string, syncId: string | null): void;
}

export type BatchKindName = 'records' | 'transactions';

export interface MetricsOptions {
  db: Db;
  perInstallation: boolean;
  /** Node's own metrics (event-loop delay, memory, GC…): once per process (main.ts). */
  processMetrics: boolean;
}

export function createMetrics(options: MetricsOptions): ServerMetrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const who = (syncId: string | null) => (options.perInstallation && syncId ? syncId : 'all');

  const requests = new Histogram({
    name: 'synchro_http_request_duration_seconds',
    help: 'HTTP requests answered, by route template, method and status.',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const batches = new Counter({
    name: 'synchro_connector_batches_total',
    help: 'Connector batches (import records, transactions) answered: accepted, or refused by error code.',
    labelNames: ['kind', 'outcome', 'installation'],
    registers: [registry],
  });
  const rows = new Counter({
    name: 'synchro_connector_rows_total',
    help: 'Rows of connector batches: inserted, duplicate (already stored), refused (items of a refused batch).',
    labelNames: ['kind', 'outcome', 'installation'],
    registers: [registry],
  });
  const orders = new Counter({
    name: 'synchro_sync_orders_total',
    help: 'Sync orders of the console, by outcome.',
    labelNames: ['outcome', 'installation'],
    registers: [registry],
  });
  const db = options.db;
  new Gauge({
    name: 'synchro_mail_outbox_depth',
    help: 'Emails waiting in the outbox (gathering, pending, sending).',
    registers: [registry],
    async collect() {
      const [row] = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM mail_outbox WHERE state IN ('gathering', 'pending', 'sending')",
      );
      this.set(row?.n ?? 0);
    },
  });
  new Gauge({
    name: 'synchro_sessions_live',
    help: 'Console sessions not expired.',
    registers: [registry],
    async collect() {
      const [row] = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM sessions WHERE expires_at > now()',
      );
      this.set(row?.n ?? 0);
    },
  });
  if (db.poolStats) {
    const stats = db.poolStats.bind(db);
    new Gauge({
      name: 'synchro_db_pool_connections',
      help: 'PostgreSQL pool: connections open, idle, and callers waiting for one.',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const s = stats();
        this.set({ state: 'total' }, s.total);
        this.set({ state: 'idle' }, s.idle);
        this.set({ state: 'waiting' }, s.waiting);
      },
    });
  }

  return {
    registry,
    request: (route, method, status, seconds) =>
      requests.observe({ route, method, status: String(status) }, seconds),
    connectorBatch: (kind, outcome, syncId) => batches.inc({ kind, outcome, installation: who(syncId) }),
    connectorRows: (kind, outcome, count, syncId) => {
      if (count > 0) rows.inc({ kind, outcome, installation: who(syncId) }, count);
    },
    syncOrder: (outcome, syncId) => orders.inc({ outcome, installation: who(syncId) }),
  };
}
