/**
 * The connector API v1 bodies the simulator sends and reads: the contract's own types
 * (`@synchro/contracts`, connector-api.ts), plus the narrower shapes of the two configuration
 * sections it writes.
 */
import { CONNECTOR_LIMITS } from '@synchro/contracts';

export type {
  TAutomateReport as TRegistrationBody,
  TAutomateReportAnswer as TRegistrationAnswer,
  TConnectorBatchAnswer as TBatchAnswer,
  TConnectorConfigPatch as TConfigurationPatch,
  TConnectorConfigPatchAnswer as TConfigurationPatchAnswer,
  TConnectorFile as TFile,
  TImportQueueRecord as TQueuedRecord,
  TImportRecord,
  TImportResult,
  TTransaction,
} from '@synchro/contracts';

/** Contract limits (connector-api.md, CONNECTOR_LIMITS). */
export const MAX_RECORDS_PER_BATCH = CONNECTOR_LIMITS.recordsPerRequest;
export const MAX_TRANSACTIONS_PER_BATCH = CONNECTOR_LIMITS.transactionsPerRequest;
export const QUEUE_PAGE_SIZE = CONNECTOR_LIMITS.queueDefault;

export type TEtat = 0 | 1 | -1;

/** The `Info` members the connector writes (values as text, as in its document). */
export type TInfoPatch = {
  VersionConnecteur?: string;
  NuxiAutomateInstall?: string;
  NuxiAutomateLibelle?: string;
  DateMAJConfig?: string;
  Exe?: string;
  Serial?: string;
};

/** `DerSynchro` as the connector writes it after a sync. */
export type TLastSyncPatch = {
  DateHeure: string;
  TypeDeSync: string;
  Duree: string;
  DureeAlerte: string;
  NbEnreg: string;
  Vitesse: string;
  Taille: string;
  TailleAlerte: string;
};

/** One entry of `Sources` in the PATCH. */
export type TSourceStatusPatch = { index: number; Status: string; StatusLibelle: string };
