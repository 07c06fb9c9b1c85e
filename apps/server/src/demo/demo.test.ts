import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/helpers/db.ts';
import type { Db } from '../db/types.ts';
import { getConfiguration } from '../domain/configurations.ts';
import { findInstallationBySyncId } from '../domain/installations.ts';
import { verifyClientId } from '../security/secrets.ts';
import { resolveSessionSecret } from '../security/session-secret.ts';
import { DEMO_CREDENTIALS_FILE, demoLoginUrl, ensureDemoInstallation } from './demo.ts';

let db: Db;
const dir = mkdtempSync(join(tmpdir(), 'synchro-demo-'));

beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('demo installation', () => {
  it('is created once on an empty database, with its client id kept in a private file', async () => {
    const demo = await ensureDemoInstallation(db, dir);
    expect(demo).toMatchObject({ syncId: 'DEMOA001', created: true });
    const inst = await findInstallationBySyncId(db, 'DEMOA001');
    expect(inst).toMatchObject({
      premium: true,
      options: '25;DEMOA001;A',
      software: '1;EBP GesCom Open Line;EBPGesComOL|2;EBP Gestion Open Line;GesCom',
    });
    expect(await verifyClientId(demo?.clientId ?? '', inst?.clientIdHash ?? '')).toBe(true);
    expect((await getConfiguration(db, inst?.id ?? '')).text).toContain('DemoSociete_6874b05c');
    const file = join(dir, DEMO_CREDENTIALS_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain(`clientId=${demo?.clientId}`);

    const again = await ensureDemoInstallation(db, dir);
    expect(again).toEqual({ syncId: 'DEMOA001', clientId: demo?.clientId, created: false });
    const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM installations');
    expect(row?.n).toBe(1);
  });

  it('prints a login URL with both ids prefilled', () => {
    expect(
      demoLoginUrl('http://localhost:5000', { syncId: 'DEMOA001', clientId: 'a b', created: true }),
    ).toBe('http://localhost:5000/auth?syncId=DEMOA001&clientId=a+b');
  });
});

describe('session secret', () => {
  it('is required with DATABASE_URL', () => {
    expect(() =>
      resolveSessionSecret({ configured: undefined, databaseUrl: 'postgres://x', dataDir: dir }),
    ).toThrow('SESSION_SECRET est obligatoire avec DATABASE_URL');
    expect(() =>
      resolveSessionSecret({ configured: 'short', databaseUrl: 'postgres://x', dataDir: dir }),
    ).toThrow('au moins 32 caractères');
  });

  it('is generated once on the embedded database, mode 600, and reused', () => {
    const first = resolveSessionSecret({ configured: undefined, databaseUrl: undefined, dataDir: dir });
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(statSync(join(dir, 'session-secret')).mode & 0o777).toBe(0o600);
    expect(resolveSessionSecret({ configured: undefined, databaseUrl: undefined, dataDir: dir })).toBe(first);
  });
});
