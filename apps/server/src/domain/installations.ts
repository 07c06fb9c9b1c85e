import { SYNC_ID_MESSAGE, SYNC_ID_PATTERN } from '@synchro/contracts';
import type { Queryable } from '../db/types.ts';
import { AppError } from '../http/errors.ts';
import { isValidTimeZone } from '../time/zoned.ts';

/** One customer installation (its licence record): the `installations` table. */
export interface Installation {
  id: string;
  syncId: string;
  clientIdHash: string;
  premium: boolean;
  options: string;
  software: string;
  suspended: boolean;
  expiresAt: Date | null;
  timeZone: string;
  timeZoneLabel: string | null;
  /** A bench installation: `seed-history` may write generated rows into it (docs/history.md, Seed). */
  bench: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** The columns of an Installation, optionally qualified by a table alias (for joins). */
export function installationColumns(alias = ''): string {
  const p = alias ? `${alias}.` : '';
  return `${p}id, ${p}sync_id AS "syncId", ${p}client_id_hash AS "clientIdHash", ${p}premium, ${p}options,
  ${p}software, ${p}suspended, ${p}expires_at AS "expiresAt", ${p}time_zone AS "timeZone",
  ${p}time_zone_label AS "timeZoneLabel", ${p}bench, ${p}created_at AS "createdAt", ${p}updated_at AS "updatedAt"`;
}

export const INSTALLATION_COLUMNS = installationColumns();

export function assertValidSyncId(syncId: string): void {
  if (!SYNC_ID_PATTERN.test(syncId)) throw new AppError(400, SYNC_ID_MESSAGE, 'INVALID_SYNC_ID');
  // The login form accepts at most 64 characters (ZLoginRequest).
  if (syncId.length > 64) {
    throw new AppError(400, "L'ID de synchronisation ne doit pas dépasser 64 caractères.", 'INVALID_SYNC_ID');
  }
}

export function isExpired(installation: Pick<Installation, 'expiresAt'>, now: Date): boolean {
  return installation.expiresAt !== null && installation.expiresAt.getTime() <= now.getTime();
}

export const SUSPENDED_MESSAGE =
  "Cette installation est suspendue : la connexion à la console n'est pas possible. Contactez votre fournisseur.";
export const EXPIRED_MESSAGE =
  "La licence de cette installation a expiré : la connexion à la console n'est pas possible. Contactez votre fournisseur pour la renouveler.";

/** Why an installation may not use the console now, or null when it may. */
export function accessRefusal(installation: Installation, now: Date): string | null {
  if (installation.suspended) return SUSPENDED_MESSAGE;
  if (isExpired(installation, now)) return EXPIRED_MESSAGE;
  return null;
}

export async function findInstallationBySyncId(db: Queryable, syncId: string): Promise<Installation | null> {
  const rows = await db.query<Installation>(
    `SELECT ${INSTALLATION_COLUMNS} FROM installations WHERE sync_id = $1`,
    [syncId],
  );
  return rows[0] ?? null;
}

/** The installation of a sync id, or 404 in French. */
export async function requireInstallation(db: Queryable, syncId: string): Promise<Installation> {
  const found = await findInstallationBySyncId(db, syncId);
  if (!found)
    throw new AppError(404, `Aucune installation avec l'ID de synchronisation ${syncId}.`, 'NOT_FOUND');
  return found;
}

export async function listInstallations(db: Queryable): Promise<Installation[]> {
  return db.query<Installation>(`SELECT ${INSTALLATION_COLUMNS} FROM installations ORDER BY sync_id`);
}

export async function countInstallations(db: Queryable): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM installations');
  return row?.n ?? 0;
}

/**
 * Stores the time zone chosen in Planification: the label as chosen, and `time_zone` (the
 * dashboard's fallback zone) when the label is an IANA zone; otherwise `time_zone` stays.
 */
export async function setInstallationTimeZone(
  db: Queryable,
  installation: Pick<Installation, 'id' | 'timeZone'>,
  label: string,
): Promise<void> {
  await db.query(
    `UPDATE installations SET time_zone = $2, time_zone_label = $3, updated_at = now() WHERE id = $1`,
    [installation.id, isValidTimeZone(label) ? label : installation.timeZone, label],
  );
}
