import { createHash, createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const SCRYPT = { N: 16384, r: 8, p: 1, keyLength: 32 } as const;

function scryptAsync(secret: string, salt: Buffer, N: number, r: number, p: number, keyLength: number) {
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(secret, salt, keyLength, { N, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** Hash of a client id: `scrypt$N$r$p$salt$key` (base64url parts). */
export async function hashClientId(clientId: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(clientId, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p, SCRYPT.keyLength);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

export async function verifyClientId(clientId: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scryptAsync(clientId, Buffer.from(salt, 'base64url'), +n, +r, +p, expected.length);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Checked when the sync id is unknown, so that an unknown id costs the same time as a wrong
 * client id and timing does not reveal which sync ids exist.
 */
let decoyHash: Promise<string> | undefined;
export function decoyClientIdHash(): Promise<string> {
  decoyHash ??= hashClientId(randomBytes(16).toString('hex'));
  return decoyHash;
}

/** A random token for cookies and connector bearer tokens: 32 bytes, base64url. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Connector tokens are 256-bit random values: a plain SHA-256 is enough to store them. */
export function hashConnectorToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Session tokens are stored as HMAC-SHA256 with the server's session secret. */
export function hashSessionToken(token: string, secret: string): string {
  return createHmac('sha256', secret).update(token).digest('hex');
}
