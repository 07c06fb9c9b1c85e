import type { DriveProviderName } from '../config/mail-env.ts';
import type { Queryable } from '../db/types.ts';
import { revokeToken } from '../network/oauth-client.ts';
import { unseal } from '../security/token-box.ts';
import { recordAudit } from './audit.ts';
import type { DriveSettings } from './drive-links.ts';

/**
 * The one way a grant the installation no longer uses is withdrawn at its provider (docs/mail.md,
 * Drive): at « Déconnecter » and when a new « Connecter » replaces the link. Best effort and
 * bounded: it runs after the link's own change is committed, never throws, and what came of it
 * is audited (a failed revocation as a failure) and returned, so that it is never silent. No
 * token leaves it.
 */

/** A revocation is given this long; the person waits for it (the redirect, the button). */
export const REVOCATION_TIMEOUT_MS = 5_000;

/**
 * revoked: the provider accepted it. failed: not obtained (refused, unreachable, too slow, the
 * provider's client no longer configured, the token unreadable). unsupported: the provider has no
 * revocation endpoint (Microsoft). already-revoked: the provider had refused this grant already.
 * same-grant: replaced by a link to the same account of the same provider, which is the same
 * grant there (Google keeps one per account and application): revoking the old token would
 * withdraw the new link too.
 */
export type Revocation = 'revoked' | 'failed' | 'unsupported' | 'already-revoked' | 'same-grant';

/** Whether the grant may still be valid at the provider after this (the person should remove it there). */
export const grantMayLive = (r: Revocation) => r === 'failed' || r === 'unsupported';

/** A grant as its `drive_links` row held it. */
export interface StoredGrant {
  provider: DriveProviderName;
  account: string;
  state: 'connected' | 'revoked';
  /** Sealed (security/token-box.ts). */
  refreshToken: Uint8Array;
}

export const sameAccount = (a: { provider: string; account: string }, b: typeof a) =>
  a.provider === b.provider && a.account.trim().toLowerCase() === b.account.trim().toLowerCase();

async function revocationOf(
  settings: DriveSettings,
  grant: StoredGrant,
  replacedBy: { provider: DriveProviderName; account: string } | null,
): Promise<Revocation> {
  const token = unseal(settings.key, grant.refreshToken);
  // Marked revoked with a readable token: the provider refused it. Unreadable (sealed under
  // another SESSION_SECRET), it may still be valid there, and cannot be revoked: a failure.
  if (grant.state === 'revoked' && token !== null) return 'already-revoked';
  if (replacedBy && sameAccount(grant, replacedBy)) return 'same-grant';
  const client = settings.clients[grant.provider];
  if (!client || token === null) return 'failed';
  return revokeToken(client, token, settings.revocationTimeoutMs);
}

/**
 * Withdraws `grant` at its provider and records it: `drive.disconnect` (the link deleted) or
 * `drive.revoke-previous` (the link replaced by `replacedBy`).
 */
export async function retireGrant(
  db: Queryable,
  settings: DriveSettings,
  grant: StoredGrant,
  req: {
    installationId: string;
    syncId: string;
    address: string;
    replacedBy: { provider: DriveProviderName; account: string } | null;
  },
): Promise<Revocation> {
  const revocation = await revocationOf(settings, grant, req.replacedBy);
  await recordAudit(db, {
    installationId: req.installationId,
    syncId: req.syncId,
    actor: 'user',
    action: req.replacedBy ? 'drive.revoke-previous' : 'drive.disconnect',
    address: req.address,
    details: { provider: grant.provider, account: grant.account, revocation },
    outcome: revocation === 'failed' ? 'failure' : 'success',
  });
  return revocation;
}
