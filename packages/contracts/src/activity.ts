import { z } from 'zod';

/**
 * Général « Activité » and « À traiter » (GET /api/dashboard/activity), and Terminaux's figures
 * (GET /api/terminals/activity). Read from counters the server keeps on every write (migration
 * 014, docs/glance.md), never from a scan.
 */

export const DASHBOARD_ACTIVITY_PATH = '/api/dashboard/activity';
export const TERMINALS_ACTIVITY_PATH = '/api/terminals/activity';

/** Days of the chart, today included. */
export const ACTIVITY_DAYS = 30;
/**
 * A terminal with no exchange for longer than this is « Silencieux depuis … »: a terminal that
 * syncs is seen several times a working day; a whole day and a night without one is worth a look
 * (docs/glance.md, Terminaux).
 */
export const TERMINAL_SILENT_AFTER_HOURS = 24;

export const ZActivityDay = z.object({
  /** The calendar day in the installation's zone, `YYYY-MM-DD`. */
  day: z.string(),
  /** Records dated that day (DateHeure), whatever their state. */
  records: z.number().int().nonnegative(),
  /** Of those, the records in error (Etat -1) now. */
  errors: z.number().int().nonnegative(),
  /** Transactions of the trace processed that day (DateHeureTrt). */
  transactions: z.number().int().nonnegative(),
});
export type TActivityDay = z.infer<typeof ZActivityDay>;

export const ZDashboardActivity = z.object({
  /** IANA zone of the days. */
  zone: z.string(),
  /** ACTIVITY_DAYS days, oldest first, the last one today. */
  days: z.array(ZActivityDay),
  toHandle: z.object({
    /** Records in error (Etat -1). */
    errors: z.number().int().nonnegative(),
    /** Records waiting to be imported (Etat 0, « Non traité »). */
    waiting: z.number().int().nonnegative(),
  }),
});
export type TDashboardActivity = z.infer<typeof ZDashboardActivity>;

export const ZTerminalActivity = z.object({
  /** IDTablette as the trace has it. */
  terminalId: z.string(),
  /** ISO 8601 UTC instant of its newest transaction; null: never seen. */
  lastExchangeAt: z.string().nullable(),
  /** Transactions and errors of the last 24 hours (whole UTC hours: docs/glance.md). */
  transactions24h: z.number().int().nonnegative(),
  errors24h: z.number().int().nonnegative(),
});
export type TTerminalActivity = z.infer<typeof ZTerminalActivity>;

export const ZTerminalsActivity = z.object({
  /** Every terminal the trace knows, and nothing for the others (« Jamais vu »). */
  terminals: z.array(ZTerminalActivity),
  /** The server's clock when read (relative times are counted from it). */
  now: z.string(),
  /** IANA zone of the exact times shown on hover. */
  zone: z.string(),
});
export type TTerminalsActivity = z.infer<typeof ZTerminalsActivity>;

export type TTerminalState = { kind: 'active' } | { kind: 'silent'; sinceMs: number } | { kind: 'never' };

/** « Actif », « Silencieux depuis … », « Jamais vu ». */
export function terminalState(lastExchangeAt: string | null, nowMs: number): TTerminalState {
  if (!lastExchangeAt) return { kind: 'never' };
  const since = Date.parse(lastExchangeAt);
  return nowMs - since > TERMINAL_SILENT_AFTER_HOURS * 3_600_000
    ? { kind: 'silent', sinceMs: since }
    : { kind: 'active' };
}
