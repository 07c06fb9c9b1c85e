import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../http/errors.ts';
import { ensurePrivateDir } from '../security/data-dir.ts';

export const LOCK_FILE_NAME = 'synchro.lock';

export interface DataDirLock {
  readonly path: string;
  release(): void;
}

interface LockContent {
  pid: number;
  host: string;
  startedAt: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(path: string): LockContent | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockContent>;
    return typeof parsed.pid === 'number' ? (parsed as LockContent) : null;
  } catch {
    return null;
  }
}

/**
 * PGlite has no lock between processes: two owners of one data folder silently lose writes.
 * The lock file holds the owner's PID; a lock whose process is gone is taken over.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  ensurePrivateDir(dataDir, (line) => process.stderr.write(`${line}\n`));
  const path = join(dataDir, LOCK_FILE_NAME);
  const content: LockContent = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, JSON.stringify(content));
      closeSync(fd);
      let released = false;
      return {
        path,
        release() {
          if (released) return;
          released = true;
          if (readLock(path)?.pid === process.pid) rmSync(path, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readLock(path);
      // A lock from another machine (shared folder) cannot be checked: it counts as held.
      if (holder && (holder.host !== hostname() || (holder.pid !== process.pid && isAlive(holder.pid)))) {
        throw new AppError(
          409,
          `Le dossier de données ${dataDir} est déjà utilisé par un autre processus (PID ${holder.pid} sur ${holder.host}). ` +
            'Arrêtez-le avant de relancer, ou choisissez un autre DATA_DIR.',
          'DATA_DIR_LOCKED',
        );
      }
      if (holder && holder.pid === process.pid) {
        throw new AppError(
          409,
          `Le dossier de données ${dataDir} est déjà ouvert par ce processus.`,
          'DATA_DIR_LOCKED',
        );
      }
      // Stale lock (dead process, unreadable file): take it over.
      rmSync(path, { force: true });
    }
  }
  throw new AppError(409, `Impossible de verrouiller le dossier de données ${dataDir}.`, 'DATA_DIR_LOCKED');
}
