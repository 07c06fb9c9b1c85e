import type { Queryable } from '../../db/types.ts';
import { hashSessionToken, randomToken } from '../../security/secrets.ts';

export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** last_seen_at is refreshed at most this often, so that reads do not all write. */
const TOUCH_INTERVAL_MS = 60 * 1000;

export interface SessionRow {
  tokenHash: string;
  installationId: string;
  lastSeenAt: Date;
  expiresAt: Date;
}

export async function createSession(
  db: Queryable,
  args: { installationId: string; secret: string; address: string; now: Date },
): Promise<string> {
  const token = randomToken();
  await db.query(
    `INSERT INTO sessions (token_hash, installation_id, created_at, last_seen_at, expires_at, address)
     VALUES ($1, $2, $3, $3, $4, $5)`,
    [
      hashSessionToken(token, args.secret),
      args.installationId,
      args.now,
      new Date(args.now.getTime() + SESSION_ABSOLUTE_MS),
      args.address,
    ],
  );
  return token;
}

/** The live session of a cookie token; an expired one is deleted and gives null. */
export async function findLiveSession(
  db: Queryable,
  token: string,
  secret: string,
  now: Date,
): Promise<SessionRow | null> {
  const tokenHash = hashSessionToken(token, secret);
  const [row] = await db.query<SessionRow>(
    `SELECT token_hash AS "tokenHash", installation_id AS "installationId", last_seen_at AS "lastSeenAt",
            expires_at AS "expiresAt"
     FROM sessions WHERE token_hash = $1`,
    [tokenHash],
  );
  if (!row) return null;
  const idleFor = now.getTime() - row.lastSeenAt.getTime();
  if (row.expiresAt.getTime() <= now.getTime() || idleFor >= SESSION_IDLE_MS) {
    await db.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash]);
    return null;
  }
  if (idleFor >= TOUCH_INTERVAL_MS) {
    await db.query('UPDATE sessions SET last_seen_at = $2 WHERE token_hash = $1', [tokenHash, now]);
  }
  return row;
}

export async function deleteSession(db: Queryable, token: string, secret: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE token_hash = $1', [hashSessionToken(token, secret)]);
}

export async function deleteInstallationSessions(db: Queryable, installationId: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE installation_id = $1', [installationId]);
}
