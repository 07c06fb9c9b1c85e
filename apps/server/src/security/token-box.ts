import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets kept in the database that the server must read back (a drive's OAuth tokens): sealed
 * with AES-256-GCM under a key derived from SESSION_SECRET (HKDF-SHA256, its own label), so that
 * a copy of the database alone does not give them. Stored as iv (12) | tag (16) | ciphertext.
 */

export type SealKey = Buffer;

export function sealKey(sessionSecret: string, label: string): SealKey {
  return Buffer.from(hkdfSync('sha256', sessionSecret, 'synchro-console', label, 32));
}

export function seal(key: SealKey, secret: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** The secret, or null when it was sealed under another key (SESSION_SECRET changed) or altered. */
export function unseal(key: SealKey, sealed: Uint8Array): string | null {
  const box = Buffer.from(sealed);
  if (box.length < 28) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, box.subarray(0, 12));
    decipher.setAuthTag(box.subarray(12, 28));
    return Buffer.concat([decipher.update(box.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
