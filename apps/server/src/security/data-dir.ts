import { chmodSync, mkdirSync, statSync } from 'node:fs';

/**
 * The data folder holds the embedded database (every configuration and its history, passwords
 * included), the session secret and the demo's client id: only its owner may read it. Created
 * with mode 0700; an existing folder open to others is tightened to 0700, or, when that is not
 * allowed (another owner), `warn` says so. Returns the mode it has now.
 */
export function ensurePrivateDir(dir: string, warn: (line: string) => void): number {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mode = statSync(dir).mode & 0o777;
  if ((mode & 0o077) === 0) return mode;
  try {
    chmodSync(dir, 0o700);
    warn(`Dossier de données ${dir} : droits ${mode.toString(8)} ramenés à 700 (il contient des secrets).`);
    return 0o700;
  } catch (err) {
    warn(
      `Attention : le dossier de données ${dir} est lisible par d'autres utilisateurs (droits ${mode.toString(8)}) ` +
        `et ses droits ne peuvent pas être changés (${(err as NodeJS.ErrnoException).code}) : ` +
        'il contient des secrets, restreignez-le (chmod 700).',
    );
    return mode;
  }
}
