import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/helpers/db.ts';
import type { Db } from '../db/types.ts';
import { getConfiguration } from '../domain/configurations.ts';
import { resumeInstallation, suspendInstallation } from '../domain/installation-admin.ts';
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
      // seed-history may fill it (docs/history.md, Seed)
      bench: true,
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

  it('DEMO=0: the clear client id is deleted, the demo is suspended (sessions ended, audited), nothing created', async () => {
    const file = join(dir, DEMO_CREDENTIALS_FILE);
    expect(existsSync(file)).toBe(true);
    const inst = await findInstallationBySyncId(db, 'DEMOA001');
    await db.query(
      `INSERT INTO sessions (token_hash, installation_id, expires_at) VALUES ('h-demo', $1, now() + interval '1 day')`,
      [inst?.id],
    );
    expect(await ensureDemoInstallation(db, dir, true)).toBeNull();
    expect(existsSync(file)).toBe(false);
    expect(await findInstallationBySyncId(db, 'DEMOA001')).toMatchObject({ suspended: true });
    const [sessions] = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM sessions WHERE installation_id = $1',
      [inst?.id],
    );
    expect(sessions?.n).toBe(0);
    const audit = await db.query<{ actor: string; details: unknown }>(
      `SELECT actor, details FROM audit_log WHERE installation_id = $1 AND action = 'installation.suspend'`,
      [inst?.id],
    );
    expect(audit).toEqual([{ actor: 'system', details: { reason: 'DEMO=0' } }]);
    // Again: nothing more (no second audit row).
    expect(await ensureDemoInstallation(db, dir, true)).toBeNull();
    expect(await db.query(`SELECT 1 FROM audit_log WHERE action = 'installation.suspend'`)).toHaveLength(1);
  });

  it("on again after DEMO=0: resumed with a new client id, printed and kept; an administrator's suspension stays", async () => {
    const file = join(dir, DEMO_CREDENTIALS_FILE);
    expect(await findInstallationBySyncId(db, 'DEMOA001')).toMatchObject({ suspended: true });
    const reopened = await ensureDemoInstallation(db, dir);
    expect(reopened).toMatchObject({ syncId: 'DEMOA001', created: false });
    const inst = await findInstallationBySyncId(db, 'DEMOA001');
    expect(inst).toMatchObject({ suspended: false });
    expect(await verifyClientId(reopened?.clientId ?? '', inst?.clientIdHash ?? '')).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain(`clientId=${reopened?.clientId}`);
    const audit = await db.query<{ actor: string; action: string }>(
      `SELECT actor, action FROM audit_log WHERE installation_id = $1 AND action IN
         ('installation.set-client-id', 'installation.resume') ORDER BY id`,
      [inst?.id],
    );
    expect(audit).toEqual([
      { actor: 'system', action: 'installation.set-client-id' },
      { actor: 'system', action: 'installation.resume' },
    ]);

    // Suspended by an administrator: the demo's start leaves it so.
    await suspendInstallation(db, 'DEMOA001');
    expect(await ensureDemoInstallation(db, dir)).toMatchObject({ created: false });
    expect(await findInstallationBySyncId(db, 'DEMOA001')).toMatchObject({ suspended: true });
    await resumeInstallation(db, 'DEMOA001');
  });

  it('DEMO=0 on an empty database creates nothing and writes no file', async () => {
    const other = await openTestDb();
    const otherDir = mkdtempSync(join(tmpdir(), 'synchro-demo-off-'));
    try {
      expect(await ensureDemoInstallation(other, otherDir, true)).toBeNull();
      const [row] = await other.query<{ n: number }>('SELECT count(*)::int AS n FROM installations');
      expect(row?.n).toBe(0);
      expect(readdirSync(otherDir)).toEqual([]);
    } finally {
      await other.close();
      rmSync(otherDir, { recursive: true, force: true });
    }
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
