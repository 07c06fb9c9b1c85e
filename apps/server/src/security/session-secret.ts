import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SESSION_SECRET_FILE = 'session-secret';

/**
 * The HMAC key of session tokens. With DATABASE_URL it must come from SESSION_SECRET (several
 * processes share it); on the embedded database one is generated once and kept in DATA_DIR.
 */
export function resolveSessionSecret(args: {
  configured: string | undefined;
  databaseUrl: string | undefined;
  dataDir: string;
}): string {
  if (args.configured) {
    if (args.configured.length < 32) throw new Error('SESSION_SECRET doit contenir au moins 32 caractères.');
    return args.configured;
  }
  if (args.databaseUrl) {
    throw new Error(
      'SESSION_SECRET est obligatoire avec DATABASE_URL (au moins 32 caractères aléatoires, par exemple : ' +
        'openssl rand -base64 48).',
    );
  }
  const file = join(args.dataDir, SESSION_SECRET_FILE);
  if (existsSync(file)) {
    const saved = readFileSync(file, 'utf8').trim();
    if (saved.length >= 32) return saved;
  }
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}
