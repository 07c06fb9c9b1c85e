import type { TConfigSectionKey } from '@synchro/contracts';

/** Every TanStack Query key of the SPA, in one place. */
export const queryKeys = {
  user: ['user'] as const,
  dashboard: ['dashboard'] as const,
  /**
   * Général's « Activité » and « À traiter » (GET /api/dashboard/activity): under `dashboard`, so
   * invalidating the dashboard reads them again too.
   */
  dashboardActivity: ['dashboard', 'activity'] as const,
  /** Terminaux's figures (GET /api/terminals/activity). */
  terminalsActivity: ['terminals', 'activity'] as const,
  serverIp: ['server-ip'] as const,
  /** The diagnostic of the configuration document (GET /api/debug/xml-status). */
  xmlStatus: ['debug', 'xml-status'] as const,
  /** A section of the configuration, by its key in the registry (CONFIG_SECTIONS of @synchro/contracts). */
  configSection: (section: TConfigSectionKey) => ['config', section] as const,
  /** Pages of the import history: every key starts with this (invalidate them all at once). */
  syncHistory: ['sync-history'] as const,
  syncHistoryPage: (params: Record<string, unknown>) => ['sync-history', 'page', params] as const,
  /** The log of one import record (apart: the pages' updates never reach it). */
  syncHistoryLog: (id: string) => ['sync-history-log', id] as const,
  /** Pages of the transaction trace, and one transaction's whole log. */
  transactionLogs: ['transaction-logs'] as const,
  transactionLogsPage: (params: Record<string, unknown>) => ['transaction-logs', 'page', params] as const,
  transactionLog: (id: string) => ['transaction-logs', 'detail', id] as const,
  /** « Emails envoyés » (Complément), and one email as it was sent. */
  outbox: ['mail', 'outbox'] as const,
  outboxMail: (id: string) => ['mail', 'outbox', id] as const,
  /** The drive link of Complément. */
  drive: ['drive'] as const,
  /** The configuration history: every key starts with this (a save or a restore invalidates them). */
  configHistory: ['configuration-history'] as const,
  configHistoryPage: (params: Record<string, unknown>) => ['configuration-history', 'page', params] as const,
  configChanges: (version: number, against: string) =>
    ['configuration-history', 'changes', version, against] as const,
  configRaw: (version: number, section: string, against: string) =>
    ['configuration-history', 'raw', version, section, against] as const,
  /** Pages of the audit journal. */
  audit: ['audit'] as const,
  auditPage: (params: Record<string, unknown>) => ['audit', 'page', params] as const,
};
