import type { TLoginRequest } from '@synchro/contracts';
import { recordAudit } from '../../domain/audit.ts';
import type { Db } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { issueDeviceCookie, verifyDeviceCookie } from '../../security/device-cookie.ts';
import { decoyClientIdHash, verifyClientId } from '../../security/secrets.ts';
import { accessRefusal, findInstallationBySyncId, type Installation } from '../../domain/installations.ts';
import {
  createSession,
  deleteInstallationSessions,
  deleteSession,
  findLiveSession,
} from '../../domain/sessions.ts';
import { countAttempt, forgetOldCounters, throttleKeys, uncount } from './throttle.ts';

export const BAD_CREDENTIALS_MESSAGE = 'Identifiants incorrects';

export interface LoginInput {
  /** Validated by ZLoginRequest: the sync id is upper-cased. */
  credentials: TLoginRequest;
  address: string;
  /** The session token the browser already had, replaced by a new one. */
  previousToken: string | undefined;
  /** The browser's device cookie for this sync id, if it sent one (http/device-cookie.ts). */
  deviceCookie: string | undefined;
  secret: string;
  now: Date;
}

export interface SignedIn {
  installation: Installation;
  token: string;
  /** A new device cookie for the browser (security/device-cookie.ts). */
  deviceCookie: string;
}

export async function login(db: Db, input: LoginInput): Promise<SignedIn> {
  const { credentials, address, now } = input;
  const device = verifyDeviceCookie(input.secret, input.deviceCookie, credentials.username, now);
  // Counted before the check, so that parallel guesses see each other (429 past the limits);
  // only a wrong client id (401) stays counted. A known device is counted apart (throttle.ts).
  let counted: Awaited<ReturnType<typeof countAttempt>>;
  try {
    counted = await countAttempt(db, throttleKeys(credentials.username, address, device), now);
  } catch (err) {
    if (err instanceof AppError && err.code === 'TOO_MANY_ATTEMPTS')
      await auditThrottled(db, input, err, device !== null);
    throw err;
  }
  let signedIn: SignedIn;
  try {
    signedIn = await checkAndSignIn(db, input, device !== null);
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'BAD_CREDENTIALS')) await uncount(db, counted);
    throw err;
  }
  await uncount(db, counted);
  return signedIn;
}

/** A sign-in refused by the throttle, in the journal of the installation it named (if any). */
async function auditThrottled(db: Db, input: LoginInput, err: AppError, knownDevice: boolean): Promise<void> {
  const installation = await findInstallationBySyncId(db, input.credentials.username);
  await recordAudit(db, {
    installationId: installation?.id ?? null,
    syncId: input.credentials.username,
    actor: 'anonymous',
    action: 'login.throttled',
    address: input.address,
    details: {
      retryAfterSeconds: Number(err.headers['Retry-After']),
      ...(knownDevice ? { knownDevice: true } : {}),
    },
  });
}

/** The client id check, the installation's state, and the new session. */
async function checkAndSignIn(db: Db, input: LoginInput, knownDevice: boolean): Promise<SignedIn> {
  const { credentials, address, now } = input;
  const installation = await findInstallationBySyncId(db, credentials.username);
  const hash = installation?.clientIdHash ?? (await decoyClientIdHash());
  const valid = (await verifyClientId(credentials.password, hash)) && installation !== null;
  if (!valid || !installation) {
    await forgetOldCounters(db, now);
    await recordAudit(db, {
      installationId: installation?.id ?? null,
      syncId: credentials.username,
      actor: 'anonymous',
      action: 'login.failure',
      address,
      ...(knownDevice ? { details: { knownDevice: true } } : {}),
    });
    throw new AppError(401, BAD_CREDENTIALS_MESSAGE, 'BAD_CREDENTIALS');
  }

  const refusal = accessRefusal(installation, now);
  if (refusal) {
    await deleteInstallationSessions(db, installation.id);
    await recordAudit(db, {
      installationId: installation.id,
      syncId: installation.syncId,
      actor: 'anonymous',
      action: 'login.refused',
      address,
      details: { reason: installation.suspended ? 'suspended' : 'expired' },
    });
    throw new AppError(403, refusal, installation.suspended ? 'SUSPENDED' : 'EXPIRED');
  }

  return db.transaction(async (tx) => {
    if (input.previousToken) await deleteSession(tx, input.previousToken, input.secret);
    const token = await createSession(tx, {
      installationId: installation.id,
      secret: input.secret,
      address,
      now,
    });
    await recordAudit(tx, {
      installationId: installation.id,
      syncId: installation.syncId,
      actor: 'user',
      action: 'login.success',
      address,
      ...(knownDevice ? { details: { knownDevice: true } } : {}),
    });
    return { installation, token, deviceCookie: issueDeviceCookie(input.secret, installation.syncId, now) };
  });
}

/** Ends the session of a cookie token; audited when it was still live. */
export async function logout(
  db: Db,
  input: { token: string; secret: string; now: Date; address: string },
): Promise<void> {
  const live = await findLiveSession(db, input.token, input.secret, input.now);
  await deleteSession(db, input.token, input.secret);
  if (live) {
    await recordAudit(db, {
      installationId: live.installation.id,
      syncId: live.installation.syncId,
      actor: 'user',
      action: 'logout',
      address: input.address,
    });
  }
}
