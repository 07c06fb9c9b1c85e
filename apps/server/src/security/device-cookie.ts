import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Device cookies (OWASP, « Slow Down Online Guessing Attacks with Device Cookies »;
 * docs/security.md, Sign-in). A browser that signed in to an installation successfully gets a
 * cookie saying so: `<sync id>.<nonce>.<expiry>.<mac>`, the MAC an HMAC-SHA256 (cut to 128 bits)
 * under a key derived from the session secret. Its holder is counted apart from untrusted clients
 * (under its nonce), so an attacker who keeps the sync id's untrusted clients refused does not
 * refuse the owner; a device cookie that fails too often is locked itself (features/auth/throttle.ts).
 *
 * Nothing is stored: the MAC proves the server issued it, for that sync id, until that time. A
 * cookie of another sync id, a forged, tampered or expired one is simply not a device cookie: its
 * client is untrusted.
 */

/** How long a device cookie is good for; a new one is issued at every successful sign-in. */
export const DEVICE_COOKIE_LIFETIME_MS = 90 * 24 * 3600 * 1000;

const MAC_BYTES = 16;
const NONCE_BYTES = 16;
const SYNC_ID = /^[A-Z0-9]{1,64}$/;
const NONCE = /^[A-Za-z0-9_-]{22}$/;
const EXPIRY = /^[1-9]\d{0,12}$/;

function deviceKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('device-cookie/v1').digest();
}

function mac(secret: string, body: string): Buffer {
  return createHmac('sha256', deviceKey(secret)).update(body).digest().subarray(0, MAC_BYTES);
}

/** A new device cookie value for `syncId`, good for DEVICE_COOKIE_LIFETIME_MS from `now`. */
export function issueDeviceCookie(secret: string, syncId: string, now: Date): string {
  if (!SYNC_ID.test(syncId)) throw new Error(`not a sync id: ${syncId}`);
  const expiry = Math.floor((now.getTime() + DEVICE_COOKIE_LIFETIME_MS) / 1000);
  const body = `${syncId}.${randomBytes(NONCE_BYTES).toString('base64url')}.${expiry}`;
  return `${body}.${mac(secret, body).toString('base64url')}`;
}

/**
 * The nonce of a device cookie issued by this server for `syncId` and not expired at `now`, or
 * null (absent, malformed, forged, another sync id's, expired).
 */
export function verifyDeviceCookie(
  secret: string,
  value: string | undefined,
  syncId: string,
  now: Date,
): string | null {
  if (!value || value.length > 200) return null;
  const parts = value.split('.');
  if (parts.length !== 4) return null;
  const [cookieSyncId = '', nonce = '', expiry = '', signature = ''] = parts;
  if (cookieSyncId !== syncId || !NONCE.test(nonce) || !EXPIRY.test(expiry)) return null;
  const expected = mac(secret, `${cookieSyncId}.${nonce}.${expiry}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (Number(expiry) * 1000 <= now.getTime()) return null;
  return nonce;
}
