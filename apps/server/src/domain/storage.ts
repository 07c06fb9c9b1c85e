import type { Queryable } from '../db/types.ts';
import { AppError } from '../http/errors.ts';

/**
 * What each installation keeps (records' XML and logs, files, transactions' logs: counted by the
 * triggers of migration 006) against its quota: its own (`installations.storage_quota_bytes`,
 * set by the admin command) or the server's default (STORAGE_QUOTA_MB). A write that would pass
 * it is refused with 507 before anything is written; Général says so from 80 %.
 */

export interface StorageUse {
  usedBytes: number;
  quotaBytes: number;
}

/** The columns `used` and `quota` (text) of the installation `i`, for storageUseOf. */
export const STORAGE_USE_COLUMNS = `(SELECT bytes FROM installation_storage WHERE installation_id = i.id)::text AS used,
            i.storage_quota_bytes::text AS quota`;

export async function storageUse(
  db: Queryable,
  installationId: string,
  defaultQuotaBytes: number,
): Promise<StorageUse> {
  const [row] = await db.query<{ used: string | null; quota: string | null }>(
    `SELECT ${STORAGE_USE_COLUMNS} FROM installations i WHERE i.id = $1`,
    [installationId],
  );
  return storageUseOf(row?.used ?? null, row?.quota ?? null, defaultQuotaBytes);
}

/** The use of stored bytes (installation_storage, as text) and own quota (null: the default). */
export function storageUseOf(
  used: string | null,
  quota: string | null,
  defaultQuotaBytes: number,
): StorageUse {
  return { usedBytes: Math.max(0, Number(used ?? 0)), quotaBytes: quota ? Number(quota) : defaultQuotaBytes };
}

const nf = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 });

/** Bytes as a French reader writes them (Go, Mo, Ko). */
export function storageSize(bytes: number): string {
  const units: [number, string][] = [
    [1024 ** 3, 'Go'],
    [1024 ** 2, 'Mo'],
    [1024, 'Ko'],
  ];
  for (const [size, unit] of units) if (bytes >= size) return `${nf.format(bytes / size)}\u00a0${unit}`;
  return `${nf.format(bytes)}\u00a0octets`;
}

/** 507 when storing `incomingBytes` more would pass the installation's quota. */
export async function ensureStorageRoom(
  db: Queryable,
  installationId: string,
  incomingBytes: number,
  defaultQuotaBytes: number,
): Promise<void> {
  refuseBeyondQuota(await storageUse(db, installationId, defaultQuotaBytes), incomingBytes);
}

/** 507 when storing `incomingBytes` more than `use` says is stored would pass its quota. */
export function refuseBeyondQuota({ usedBytes, quotaBytes }: StorageUse, incomingBytes: number): void {
  if (usedBytes + incomingBytes <= quotaBytes) return;
  throw new AppError(
    507,
    `Espace de stockage de l’installation plein\u00a0: ${storageSize(usedBytes)} utilisés sur ${storageSize(quotaBytes)} autorisés, ` +
      `et cet envoi en demande ${storageSize(incomingBytes)}. Rien n’a été enregistré. ` +
      'Contactez votre fournisseur pour augmenter le quota.',
    'insufficient-storage',
  );
}
