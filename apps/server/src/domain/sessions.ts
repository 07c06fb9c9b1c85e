import type { Queryable } from '../db/types.ts';
import { hashSessionToken, randomToken } from '../security/secrets.ts';
import { accessRefusal, installationColumns, type Installation } from './installations.ts';
import { sessionCacheOf } from './session-cache.ts';

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

export interface LiveSession {
  session: SessionRow;
  installation: Installation;
  /** Version of the installation's stored configuration (0 without one), read in the same query. */
  configVersion: number;
}

export async function createSession(
  db: Queryable,
  args: { installationId: string; secret: string; address: string; now: Date },
): Promise<string> {
  const token = randomToken();
  // Housekeeping: sessions that ended without being presented again are removed at each login.
  await db.query('DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at <= $2', [
    args.now,
    new Date(args.now.getTime() - SESSION_IDLE_MS),
  ]);
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

const LIVE_SESSION_SQL = `SELECT s.last_seen_at AS "sLastSeenAt", s.expires_at AS "sExpiresAt",
  coalesce(c.version, 0) AS "sConfigVersion", ${installationColumns('i')}
  FROM sessions s JOIN installations i ON i.id = s.installation_id
  LEFT JOIN configurations c ON c.installation_id = i.id
  WHERE s.token_hash = $1`;

/** A session past its absolute lifetime or idle too long at `now`. */
function sessionEnded(expiresAt: Date, lastSeenAt: Date, now: Date): boolean {
  return expiresAt.getTime() <= now.getTime() || now.getTime() - lastSeenAt.getTime() >= SESSION_IDLE_MS;
}

/** Whether a session read at `lastSeenAt` is still live at `now` and needs no touch yet. */
function liveWithoutTouch(session: SessionRow, now: Date): boolean {
  return (
    session.expiresAt.getTime() > now.getTime() &&
    now.getTime() - session.lastSeenAt.getTime() < TOUCH_INTERVAL_MS
  );
}

/**
 * The live session of a cookie token and its installation; an expired one is deleted (null). On
 * the embedded database a session read less than a minute after its last touch comes from memory
 * (domain/session-cache.ts): the touch, and any change that ends it, go through the database.
 */
export async function findLiveSession(
  db: Queryable,
  token: string,
  secret: string,
  now: Date,
): Promise<LiveSession | null> {
  const tokenHash = hashSessionToken(token, secret);
  const cache = sessionCacheOf<LiveSession>(db);
  const cached = cache?.get(tokenHash);
  if (cached && liveWithoutTouch(cached.session, now)) return cached;
  const readAt = cache?.generation ?? 0;
  // One round trip for the session, its installation and the version of its configuration:
  // every protected request runs this (the version keys the configuration cache), hence also a
  // prepared statement.
  const [row] = await db.query<
    Installation & { sLastSeenAt: Date; sExpiresAt: Date; sConfigVersion: number }
  >(LIVE_SESSION_SQL, [tokenHash], { prepare: 'live_session' });
  if (!row) return null;
  const { sLastSeenAt, sExpiresAt, sConfigVersion, ...installation } = row;
  const idleFor = now.getTime() - sLastSeenAt.getTime();
  if (sessionEnded(sExpiresAt, sLastSeenAt, now)) {
    await db.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash]);
    return null;
  }
  if (idleFor >= TOUCH_INTERVAL_MS) {
    await db.query('UPDATE sessions SET last_seen_at = $2 WHERE token_hash = $1', [tokenHash, now]);
  }
  const live: LiveSession = {
    session: { tokenHash, installationId: installation.id, lastSeenAt: sLastSeenAt, expiresAt: sExpiresAt },
    // Shared by the requests the cache serves: nobody may change it.
    installation: Object.freeze(installation),
    configVersion: sConfigVersion,
  };
  // A touch is itself a change (migration 020): that read is not kept, the next one is.
  if (cache && liveWithoutTouch(live.session, now)) cache.store(tokenHash, installation.id, live, readAt);
  return live;
}

/**
 * Whether a session is still live at `now` (not ended, not expired, not idle too long, its
 * installation still allowed in), without touching it: an open event stream re-asks this, and
 * must not keep an unattended session alive (features/live/routes.ts).
 */
export async function sessionStillLive(
  db: Queryable,
  token: string,
  secret: string,
  now: Date,
): Promise<boolean> {
  const [row] = await db.query<Installation & { sLastSeenAt: Date; sExpiresAt: Date }>(LIVE_SESSION_SQL, [
    hashSessionToken(token, secret),
  ]);
  if (!row) return false;
  const { sLastSeenAt, sExpiresAt, ...installation } = row;
  return !sessionEnded(sExpiresAt, sLastSeenAt, now) && accessRefusal(installation, now) === null;
}

export async function deleteSession(db: Queryable, token: string, secret: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE token_hash = $1', [hashSessionToken(token, secret)]);
}

export async function deleteInstallationSessions(db: Queryable, installationId: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE installation_id = $1', [installationId]);
}
