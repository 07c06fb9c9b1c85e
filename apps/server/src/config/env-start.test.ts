import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_ROOT } from '../paths.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'synchro-env-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the server process refuses a misconfiguration', () => {
  it('refuses to start with TRUST_PROXY=true, says why, and opens nothing', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(SERVER_ROOT, 'src/main.ts')], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', TRUST_PROXY: 'true', PORT: '0' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Démarrage impossible : TRUST_PROXY=true refusé : tout client pourrait');
    expect(run.stdout).not.toContain('Connexion');
    expect(existsSync(join(dataDir, 'pglite'))).toBe(false);
  });

  it('refuses to start with SMTP_URL and no PUBLIC_URL, says why, and opens nothing', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(SERVER_ROOT, 'src/main.ts')], {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        PUBLIC_URL: '',
        SMTP_URL: 'smtp://relais:S3cret@smtp.exemple.fr',
        MAIL_FROM: 'Console <console@exemple.fr>',
        PORT: '0',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Démarrage impossible : PUBLIC_URL manquant : avec SMTP_URL');
    expect(run.stderr).not.toContain('S3cret');
    expect(existsSync(join(dataDir, 'pglite'))).toBe(false);
  });
});
