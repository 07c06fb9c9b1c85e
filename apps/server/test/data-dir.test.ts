import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireDataDirLock } from '../src/db/lock.ts';
import { ensurePrivateDir } from '../src/security/data-dir.ts';

const root = mkdtempSync(join(tmpdir(), 'synchro-datadir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const modeOf = (dir: string) => statSync(dir).mode & 0o777;

describe('the data folder is private', () => {
  it('is created with mode 0700 (parents too), silently', () => {
    const warnings: string[] = [];
    const dir = join(root, 'new', 'data');
    expect(ensurePrivateDir(dir, (l) => warnings.push(l))).toBe(0o700);
    expect(modeOf(dir)).toBe(0o700);
    expect(warnings).toEqual([]);
  });

  it('an existing folder open to others is tightened to 0700, and says so', () => {
    const warnings: string[] = [];
    const dir = join(root, 'open');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    expect(ensurePrivateDir(dir, (l) => warnings.push(l))).toBe(0o700);
    expect(modeOf(dir)).toBe(0o700);
    expect(warnings).toEqual([
      `Dossier de données ${dir} : droits 755 ramenés à 700 (il contient des secrets).`,
    ]);
    // Already private: nothing said.
    expect(ensurePrivateDir(dir, (l) => warnings.push(l))).toBe(0o700);
    expect(warnings).toHaveLength(1);
  });

  it('the server and the admin command take the folder through the lock: 0700 there too', () => {
    const dir = join(root, 'locked');
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    const lock = acquireDataDirLock(dir);
    try {
      expect(modeOf(dir)).toBe(0o700);
    } finally {
      lock.release();
    }
  });
});
