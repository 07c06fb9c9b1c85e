import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/helpers/db.ts';
import type { Db } from '../db/types.ts';
import { getConfiguration, MINIMAL_CONFIGURATION } from '../domain/configurations.ts';
import { findInstallationBySyncId } from '../domain/installations.ts';
import { DEMO_CONFIG_FILE, SERVER_ROOT } from '../paths.ts';
import { verifyClientId, hashConnectorToken } from '../security/secrets.ts';
import { runAdmin } from './commands.ts';

let db: Db;
const tmp = mkdtempSync(join(tmpdir(), 'synchro-admin-'));

beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function admin(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  // The command closes what it opens: hand it a view whose close() keeps the test database open.
  const code = await runAdmin(argv, {
    openDb: async () => ({ ...db, close: async () => {} }),
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out, err: err.join('\n') };
}

describe('admin command', () => {
  it('create-installation prints one JSON line with the connector token; only hashes are stored', async () => {
    const res = await admin(
      'create-installation',
      '--sync-id',
      'ADMIN001',
      '--client-id',
      'secret-client',
      '--config',
      DEMO_CONFIG_FILE,
      '--premium',
      '--options',
      '25;ADMIN001;A',
      '--software',
      '1;EBP GesCom Open Line;EBPGesComOL',
    );
    expect(res.code).toBe(0);
    expect(res.out).toHaveLength(1);
    const printed = JSON.parse(res.out[0] ?? '') as { syncId: string; connectorToken: string };
    expect(printed.syncId).toBe('ADMIN001');
    expect(printed.connectorToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const inst = await findInstallationBySyncId(db, 'ADMIN001');
    expect(inst).toMatchObject({
      premium: true,
      options: '25;ADMIN001;A',
      software: '1;EBP GesCom Open Line;EBPGesComOL',
    });
    expect(inst?.clientIdHash).not.toContain('secret-client');
    expect(await verifyClientId('secret-client', inst?.clientIdHash ?? '')).toBe(true);
    const [row] = await db.query<{ h: string }>(
      'SELECT connector_token_hash AS h FROM installations WHERE sync_id = $1',
      ['ADMIN001'],
    );
    expect(row?.h).toBe(hashConnectorToken(printed.connectorToken));
    const config = await getConfiguration(db, inst?.id ?? '');
    expect(config.version).toBe(1);
    expect(config.text).toContain('<Connexion>');
    const versions = await db.query('SELECT author FROM configuration_versions WHERE installation_id = $1', [
      inst?.id,
    ]);
    expect(versions).toEqual([{ author: 'admin' }]);
  });

  it('without --config stores a minimal <Connexion> document', async () => {
    expect((await admin('create-installation', '--sync-id', 'MINI1', '--client-id', 'x')).code).toBe(0);
    const inst = await findInstallationBySyncId(db, 'MINI1');
    expect((await getConfiguration(db, inst?.id ?? '')).text).toBe(MINIMAL_CONFIGURATION);
    expect(inst?.premium).toBe(false);
  });

  it('refuses a duplicate sync id', async () => {
    const res = await admin('create-installation', '--sync-id', 'ADMIN001', '--client-id', 'other');
    expect(res.code).not.toBe(0);
    expect(res.err).toContain("Une installation avec l'ID de synchronisation ADMIN001 existe déjà.");
  });

  it('refuses an invalid sync id', async () => {
    const res = await admin('create-installation', '--sync-id', 'abc-1', '--client-id', 'x');
    expect(res.code).not.toBe(0);
    expect(res.err).toContain('majuscules et ne contenir que des lettres et des chiffres');
    expect(await findInstallationBySyncId(db, 'abc-1')).toBeNull();
    const long = await admin('create-installation', '--sync-id', 'A'.repeat(65), '--client-id', 'x');
    expect(long.err).toContain('ne doit pas dépasser 64 caractères');
  });

  it('refuses an unreadable or non-XML configuration file', async () => {
    const missing = await admin(
      'create-installation',
      '--sync-id',
      'NOFILE',
      '--client-id',
      'x',
      '--config',
      join(tmp, 'absent.xml'),
    );
    expect(missing.code).not.toBe(0);
    expect(missing.err).toContain('Impossible de lire le fichier de configuration');
    const notXml = join(tmp, 'notxml.xml');
    writeFileSync(notXml, 'ceci est du texte');
    const bad = await admin(
      'create-installation',
      '--sync-id',
      'NOXML',
      '--client-id',
      'x',
      '--config',
      notXml,
    );
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain("n'est pas une configuration XML valide");
    expect(await findInstallationBySyncId(db, 'NOXML')).toBeNull();
  });

  it('refuses missing arguments and unknown commands or options', async () => {
    const noClient = await admin('create-installation', '--sync-id', 'X1');
    expect(noClient.code).not.toBe(0);
    expect(noClient.err).toContain('Argument obligatoire manquant : --client-id.');
    expect((await admin('frobnicate')).err).toContain('Commande inconnue : frobnicate.');
    expect((await admin()).err).toContain('Aucune commande indiquée.');
    expect((await admin('list', '--bogus')).err).toContain('Arguments invalides');
  });

  it('set-client-id replaces the secret and ends the sessions', async () => {
    const inst = await findInstallationBySyncId(db, 'ADMIN001');
    await db.query(
      `INSERT INTO sessions (token_hash, installation_id, expires_at) VALUES ('h1', $1, now() + interval '1 day')`,
      [inst?.id],
    );
    expect((await admin('set-client-id', '--sync-id', 'ADMIN001', '--client-id', 'new-secret')).code).toBe(0);
    const after = await findInstallationBySyncId(db, 'ADMIN001');
    expect(await verifyClientId('new-secret', after?.clientIdHash ?? '')).toBe(true);
    expect(await verifyClientId('secret-client', after?.clientIdHash ?? '')).toBe(false);
    expect(await db.query('SELECT * FROM sessions WHERE installation_id = $1', [inst?.id])).toEqual([]);
    const unknown = await admin('set-client-id', '--sync-id', 'NOPE', '--client-id', 'x');
    expect(unknown.code).not.toBe(0);
    expect(unknown.err).toContain("Aucune installation avec l'ID de synchronisation NOPE.");
  });

  it('suspend marks the installation suspended', async () => {
    expect((await admin('suspend', '--sync-id', 'MINI1')).code).toBe(0);
    expect((await findInstallationBySyncId(db, 'MINI1'))?.suspended).toBe(true);
  });

  it('resume lets a suspended installation in again', async () => {
    expect((await admin('resume', '--sync-id', 'MINI1')).code).toBe(0);
    expect((await findInstallationBySyncId(db, 'MINI1'))?.suspended).toBe(false);
    expect((await admin('suspend', '--sync-id', 'MINI1')).code).toBe(0);
  });

  it('set-expiry sets, clears and validates the licence expiry; a past one ends the sessions', async () => {
    const set = await admin('set-expiry', '--sync-id', 'ADMIN001', '--expires-at', '2031-06-30');
    expect(set.code).toBe(0);
    expect(JSON.parse(set.out[0] ?? '')).toEqual({
      syncId: 'ADMIN001',
      expiresAt: '2031-06-30T00:00:00.000Z',
    });
    expect((await findInstallationBySyncId(db, 'ADMIN001'))?.expiresAt?.toISOString()).toBe(
      '2031-06-30T00:00:00.000Z',
    );

    const inst = await findInstallationBySyncId(db, 'ADMIN001');
    await db.query(
      `INSERT INTO sessions (token_hash, installation_id, expires_at) VALUES ('h2', $1, now() + interval '1 day')`,
      [inst?.id],
    );
    expect(
      (await admin('set-expiry', '--sync-id', 'ADMIN001', '--expires-at', '2020-01-01T12:00:00Z')).code,
    ).toBe(0);
    expect(await db.query('SELECT * FROM sessions WHERE installation_id = $1', [inst?.id])).toEqual([]);

    expect((await admin('set-expiry', '--sync-id', 'ADMIN001', '--expires-at', 'none')).code).toBe(0);
    expect((await findInstallationBySyncId(db, 'ADMIN001'))?.expiresAt).toBeNull();

    const bad = await admin('set-expiry', '--sync-id', 'ADMIN001', '--expires-at', 'demain');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("Date d'expiration invalide : demain");
  });

  it('list prints one JSON line per installation and no secret', async () => {
    const res = await admin('list');
    expect(res.code).toBe(0);
    const lines = res.out.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.syncId)).toEqual(['ADMIN001', 'MINI1']);
    expect(lines[1]).toMatchObject({ suspended: true });
    const all = res.out.join('\n');
    expect(all).not.toMatch(/scrypt|client_id|clientIdHash|connectorToken|token/i);
  });

  it('rotate-connector-token prints the new token; only its hash is stored, the old one is gone; audited', async () => {
    const created = await admin(
      'create-installation',
      '--sync-id',
      'ROTATE01',
      '--client-id',
      'secret-client',
    );
    const { connectorToken: old } = JSON.parse(created.out[0] ?? '') as { connectorToken: string };
    const res = await admin('rotate-connector-token', '--sync-id', 'ROTATE01');
    expect(res.code, res.err).toBe(0);
    expect(res.out).toHaveLength(1);
    const printed = JSON.parse(res.out[0] ?? '') as { syncId: string; connectorToken: string };
    expect(Object.keys(printed)).toEqual(['syncId', 'connectorToken']);
    expect(printed.syncId).toBe('ROTATE01');
    expect(printed.connectorToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(printed.connectorToken).not.toBe(old);
    const [row] = await db.query<{ h: string; id: string }>(
      'SELECT id, connector_token_hash AS h FROM installations WHERE sync_id = $1',
      ['ROTATE01'],
    );
    expect(row?.h).toBe(hashConnectorToken(printed.connectorToken));
    const [audit] = await db.query<{ actor: string; details: unknown }>(
      `SELECT actor, details FROM audit_log WHERE installation_id = $1 AND action = 'installation.rotate-connector-token'`,
      [row?.id],
    );
    expect(audit).toEqual({ actor: 'admin', details: null });

    const unknown = await admin('rotate-connector-token', '--sync-id', 'NOPE0001');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe("Erreur : Aucune installation avec l'ID de synchronisation NOPE0001.");
    const usage = await admin('rotate-connector-token');
    expect(usage.code).toBe(2);
    expect(usage.err).toContain('Argument obligatoire manquant : --sync-id.');
    expect(usage.err).toContain('rotate-connector-token --sync-id ID');
  });
});

describe('admin command as a process', () => {
  it('runs through tsx with DATA_DIR and exits non-zero with a French error', () => {
    const dataDir = join(tmp, 'data');
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', join(SERVER_ROOT, 'src/admin/cli.ts'), ...args], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
        encoding: 'utf8',
        timeout: 60_000,
      });
    const created = run('create-installation', '--sync-id', 'PROC1', '--client-id', 'abc');
    expect(created.status).toBe(0);
    expect(JSON.parse(created.stdout.trim())).toMatchObject({ syncId: 'PROC1' });
    const dup = run('create-installation', '--sync-id', 'PROC1', '--client-id', 'abc');
    expect(dup.status).toBe(1);
    expect(dup.stderr).toContain('existe déjà');
  });
});
