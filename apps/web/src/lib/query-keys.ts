import type { TConfigSectionKey } from '@synchro/contracts';

/** Every TanStack Query key of the SPA, in one place. */
export const queryKeys = {
  user: ['user'] as const,
  dashboard: ['dashboard'] as const,
  serverIp: ['server-ip'] as const,
  /** The diagnostic of the configuration document (GET /api/debug/xml-status). */
  xmlStatus: ['debug', 'xml-status'] as const,
  /** A section of the configuration, by its key in the registry (CONFIG_SECTIONS of @synchro/contracts). */
  configSection: (section: TConfigSectionKey) => ['config', section] as const,
};
