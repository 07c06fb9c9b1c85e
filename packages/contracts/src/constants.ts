// Zod-free on purpose: the settings screens import it (`@synchro/contracts/constants`) without
// pulling the schemas into their chunks. config-sections.ts and auth.ts re-export these values.

/** Fixed value shown instead of any secret; a save that sends it back keeps the stored secret. */
export const SECRET_PLACEHOLDER = '••••••••';

/**
 * The raw view of a version's changes: a secret that differs between the two versions compared,
 * masked on each side by which side it is (nothing of the secret itself); an unchanged one is
 * SECRET_PLACEHOLDER on both.
 */
export const SECRET_CHANGED_MASKS = {
  before: `${SECRET_PLACEHOLDER} (ancienne valeur)`,
  after: `${SECRET_PLACEHOLDER} (nouvelle valeur)`,
} as const;

/** The provider select (docs/spec-notes.md, Sources): display label and stored value. */
export const PROVIDER_OPTIONS = [
  { label: 'Pas de connexion', value: '' },
  { label: 'CLOUD POUR VERSION SAAS', value: 'CLOUD' },
  { label: 'ODBC 32/64 bits', value: 'MSDASQL' },
  { label: 'OLE DB POUR SQL Server', value: 'SQLOLEDB' },
  { label: 'OLE DB POUR Access 97', value: 'Microsoft.Jet.OLEDB.3.51' },
  { label: 'OLE DB POUR Access 2000', value: 'Microsoft.Jet.OLEDB.4.0' },
  { label: 'Natif HFSQL C/S', value: 'WinDevClientServeurHF' },
  { label: 'Natif HFSQL Classic', value: 'WinDevHF7' },
] as const;

/** Number of Source and Liaison blocks shown (views are padded with empty blocks). */
export const CONFIG_BLOCK_COUNT = 4;

/**
 * The console API's fixed paths, as the spec names them (docs/spec-notes.md quotes each call under
 * its subject: Sign-in, Current user, Dashboard, Diagnostic…), read by the server's routes and the
 * SPA's calls. The sections' paths are in CONFIG_SECTIONS, the history's in
 * history.ts, the connector's in connector-api.ts.
 */
export const API_PATHS = {
  login: '/api/login',
  logout: '/api/logout',
  user: '/api/user',
  dashboard: '/api/dashboard',
  serverIp: '/api/server-ip',
  syncAutomate: '/api/sync-automate',
  debugXmlStatus: '/api/debug/xml-status',
  debugRepairXml: '/api/debug/repair-xml',
} as const;
