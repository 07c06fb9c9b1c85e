/** Every TanStack Query key of the SPA, in one place. */
export const queryKeys = {
  user: ['user'] as const,
  dashboard: ['dashboard'] as const,
  serverIp: ['server-ip'] as const,
  /** The diagnostic of the configuration document (GET /api/debug/xml-status). */
  xmlStatus: ['debug', 'xml-status'] as const,
  /** A section of the configuration (GET /api/config/<section>). */
  configSection: (section: 'sources' | 'external-links' | 'complement') => ['config', section] as const,
};
