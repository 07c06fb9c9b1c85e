import { z } from 'zod';

export const ZConfigInfo = z.object({
  /** Info/Exe: Windows path of the connector. */
  exe: z.string(),
  /** Info/Serial. */
  serial: z.string(),
  /** Info/NuxiAutomateInstall: 1 installed, 0 not installed, -1 update required; null when absent. */
  automateInstall: z.number().int().nullable(),
  /** Info/NuxiAutomateLibelle, e.g. 'Version : 6.11.23.9'. */
  automateLabel: z.string(),
  /** Info/DateMAJConfig as stored (digits, YYYYMMDDHHMMSSmmm, connector's wall-clock time); null when absent or not digits. */
  configUpdatedAt: z.string().nullable(),
  /** Info/VersionConnecteur; null when absent or empty. */
  connectorVersion: z.string().nullable(),
});
export type TConfigInfo = z.infer<typeof ZConfigInfo>;

/** What DerSynchro says of the last synchronisation besides its time (also in the dashboard view). */
export const ZLastSyncFigures = z.object({
  /** DerSynchro/TypeDeSync, decoded (e.g. 'Complète'); null when absent or empty. */
  type: z.string().nullable(),
  /** DerSynchro/Duree (e.g. '00:04:11'); null when absent or empty. */
  duration: z.string().nullable(),
  durationAlert: z.boolean(),
  /** DerSynchro/NbEnreg. */
  records: z.number().nullable(),
  /** DerSynchro/Vitesse, records per minute. */
  speed: z.number().nullable(),
  /** DerSynchro/Taille as written (e.g. '3,721 Mo'). */
  volume: z.string().nullable(),
  volumeAlert: z.boolean(),
});

export const ZLastSyncInfo = z.object({
  /** DerSynchro/DateHeure as stored (digits, YYYYMMDDHHMM[SSmmm]); null when absent or not digits. */
  dateHeure: z.string().nullable(),
  ...ZLastSyncFigures.shape,
});
export type TLastSyncInfo = z.infer<typeof ZLastSyncInfo>;
