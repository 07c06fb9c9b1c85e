import type { CONFIG_SECTION_PATHS } from '@synchro/contracts';

/** The name of a configuration section: the end of its GET path (`/api/config/<section>`). */
export type ConfigSectionKey =
  (typeof CONFIG_SECTION_PATHS)[keyof typeof CONFIG_SECTION_PATHS] extends `/api/config/${infer S}`
    ? S
    : never;

/** GET path of a configuration section's view. */
export const configSectionPath = (section: ConfigSectionKey) => `/api/config/${section}` as const;

/** Every TanStack Query key of the SPA, in one place. */
export const queryKeys = {
  user: ['user'] as const,
  dashboard: ['dashboard'] as const,
  serverIp: ['server-ip'] as const,
  /** The diagnostic of the configuration document (GET /api/debug/xml-status). */
  xmlStatus: ['debug', 'xml-status'] as const,
  /** A section of the configuration (GET /api/config/<section>). */
  configSection: (section: ConfigSectionKey) => ['config', section] as const,
};
