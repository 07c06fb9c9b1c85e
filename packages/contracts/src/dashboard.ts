import { z } from 'zod';
import { ZPlanningCounts } from './auth.ts';
import { ZLastSyncFigures } from './config-sections.ts';

export const ZSyncType = z.enum(['C', 'R', 'I']);
export type TSyncType = z.infer<typeof ZSyncType>;

export const ZAutomateState = z.enum(['installed', 'not-installed', 'update-required', 'unknown']);
export type TAutomateState = z.infer<typeof ZAutomateState>;

export const ZDashboardSource = z.object({
  /** 1-based position of the Source block in the configuration. */
  position: z.number().int(),
  provider: z.string(),
  /** Status written by the connector; 0 means the connection failed, null when absent. */
  status: z.number().int().nullable(),
  statusLabel: z.string(),
  failed: z.boolean(),
});
export type TDashboardSource = z.infer<typeof ZDashboardSource>;

/** GET /api/dashboard: the typed view of the Général screen, computed by the server. */
export const ZDashboardView = z.object({
  syncId: z.string(),
  softwareName: z.string(),
  premium: z.boolean(),
  connectorVersion: z.string().nullable(),
  automate: z.object({ state: ZAutomateState, label: z.string().nullable() }),
  /** ISO 8601 UTC instants; the connector's zone-less timestamps read in the installation's zone. */
  configUpdatedAt: z.string().nullable(),
  sources: z.array(ZDashboardSource),
  lastSync: z.object({
    at: z.string().nullable(),
    ...ZLastSyncFigures.shape,
    /** Older than 72 hours and not from today (in the display zone). */
    stale: z.boolean(),
  }),
  terminals: z.object({ authorised: z.number().int().nullable(), declared: z.number().int() }),
  planningCounts: ZPlanningCounts,
  googleKeysRemaining: z.literal('NC'),
  /** IANA zone used to display times (Planification), and its current offset in minutes. */
  displayTimeZone: z.object({ zone: z.string(), offsetMinutes: z.number().int() }),
  configVersion: z.number().int(),
});
export type TDashboardView = z.infer<typeof ZDashboardView>;

/** POST /api/sync-automate */
export const ZSyncAutomateRequest = z.object({ type: ZSyncType });
export type TSyncAutomateRequest = z.infer<typeof ZSyncAutomateRequest>;
export const ZSyncAutomateResponse = z.object({ retInfo: z.string(), retSync: z.number().int() });
export type TSyncAutomateResponse = z.infer<typeof ZSyncAutomateResponse>;

/** GET /api/server-ip */
export const ZServerIp = z.object({ ip: z.string() });
export type TServerIp = z.infer<typeof ZServerIp>;
