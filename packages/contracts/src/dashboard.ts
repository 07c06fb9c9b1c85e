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

/**
 * Hours of silence after which the automate service is shown offline (docs/spec-notes.md,
 * Automate: « inactive after 24 h »).
 */
export const AUTOMATE_OFFLINE_AFTER_HOURS = 24;

/**
 * The automate service as it reports itself to the console (its newest registration), beside
 * what the configuration says of it (`automate`).
 */
export const ZAutomateService = z.object({
  /** False when it never reported. */
  registered: z.boolean(),
  /** Reported within AUTOMATE_OFFLINE_AFTER_HOURS. */
  online: z.boolean(),
  /** ISO 8601 UTC instant of its newest report. */
  lastReportAt: z.string().nullable(),
  /** Seconds between that report and the server's clock when the view was built. */
  lastReportAgeSeconds: z.number().int().nonnegative().nullable(),
  version: z.string().nullable(),
  machineName: z.string().nullable(),
  /** Where orders are sent: `203.0.113.5:8080`, `[2001:db8::5]:8080`. */
  address: z.string().nullable(),
  /**
   * Why the console will not send orders to that address (its policy, AUTOMATE_NETWORKS), in
   * French with what to do; null when it will (or nothing reported).
   */
  ordersRefused: z.string().nullable(),
});
export type TAutomateService = z.infer<typeof ZAutomateService>;

/** GET /api/dashboard: the typed view of the Général screen, computed by the server. */
export const SUPPORT_LINK_KEYS = ['remote', 'support', 'customer', 'editor'] as const;
export type TSupportLinkKey = (typeof SUPPORT_LINK_KEYS)[number];
export const ZSupportLinks = z.object({
  remote: z.string().optional(),
  support: z.string().optional(),
  customer: z.string().optional(),
  editor: z.string().optional(),
});
export type TSupportLinks = z.infer<typeof ZSupportLinks>;

export const ZDashboardView = z.object({
  syncId: z.string(),
  softwareName: z.string(),
  premium: z.boolean(),
  connectorVersion: z.string().nullable(),
  automate: z.object({ state: ZAutomateState, label: z.string().nullable() }),
  automateService: ZAutomateService,
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
  /** Bytes the installation keeps (records, files, transactions) and its quota (docs/server.md). */
  storage: z.object({ usedBytes: z.number().nonnegative(), quotaBytes: z.number().positive() }),
  /** The support links of this server (SUPPORT_*_URL, set when it starts); a link not set is absent. */
  supportLinks: ZSupportLinks,
});
/** Share of its storage quota from which Général warns an installation. */
export const STORAGE_WARNING_SHARE = 0.8;

export type TDashboardView = z.infer<typeof ZDashboardView>;

/** POST /api/sync-automate */
export const ZSyncAutomateRequest = z.object({ type: ZSyncType });
export type TSyncAutomateRequest = z.infer<typeof ZSyncAutomateRequest>;
/** What became of a sync order (docs/server.md, Sync orders); retInfo says it in French. */
export const ZSyncOrderOutcome = z.enum([
  'accepted',
  'refused',
  'not-premium',
  'no-automate',
  'address-refused',
  'busy',
  'rate-limited',
  'unreachable',
  'timeout',
  'redirect',
  'answer-too-large',
  'malformed-answer',
]);
export type TSyncOrderOutcome = z.infer<typeof ZSyncOrderOutcome>;
export const ZSyncAutomateResponse = z.object({
  retInfo: z.string(),
  retSync: z.number().int(),
  /** Added to the legacy answer; absent from older servers. */
  outcome: ZSyncOrderOutcome.optional(),
});
export type TSyncAutomateResponse = z.infer<typeof ZSyncAutomateResponse>;

/** GET /api/server-ip */
export const ZServerIp = z.object({
  ip: z.string(),
  /**
   * Added to the legacy answer: `configured` (PUBLIC_IP) or `interface` (the address of the
   * server's default route, which may be a private one behind a NAT).
   */
  source: z.enum(['configured', 'interface']).optional(),
});
export type TServerIp = z.infer<typeof ZServerIp>;
