import type { Queryable } from '../../db/types.ts';
import {
  AUTOMATE_REGISTRATION_COLUMNS,
  type AutomateRegistration,
} from '../../domain/automate-registrations.ts';
import { STORAGE_USE_COLUMNS, storageUseOf, type StorageUse } from '../../domain/storage.ts';

/**
 * Général's two readings beside the configuration, the automate's newest report and the storage
 * use, in one prepared round trip: the dashboard is built on every request (its state changes
 * with them and with the time), and on the embedded database each statement costs its own
 * ~150 µs (bench/README.md, Compression).
 */
const DASHBOARD_STATE_SQL = `SELECT ${AUTOMATE_REGISTRATION_COLUMNS}, ${STORAGE_USE_COLUMNS}
     FROM installations i LEFT JOIN automate_registrations r ON r.installation_id = i.id
     WHERE i.id = $1`;

type Row = { [K in keyof AutomateRegistration]: AutomateRegistration[K] | null } & {
  used: string | null;
  quota: string | null;
};

export async function readDashboardState(
  db: Queryable,
  installationId: string,
  defaultQuotaBytes: number,
): Promise<{ registration: AutomateRegistration | null; storage: StorageUse }> {
  const [row] = await db.query<Row>(DASHBOARD_STATE_SQL, [installationId], { prepare: 'dashboard_state' });
  const storage = storageUseOf(row?.used ?? null, row?.quota ?? null, defaultQuotaBytes);
  if (!row) return { registration: null, storage };
  // The report's columns are all NOT NULL: all null means no report (the LEFT JOIN found none).
  const { ip, port, version, machineName, reportedAt } = row;
  const registration =
    ip !== null && port !== null && version !== null && machineName !== null && reportedAt !== null
      ? { ip, port, version, machineName, reportedAt }
      : null;
  return { registration, storage };
}
