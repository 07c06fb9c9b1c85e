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
  return adminWithStdin('', ...argv);
}

async function adminWithStdin(stdin: string, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  // The command closes what it opens: hand it a view whose close() keeps the test database open.
  const code = await runAdmin(argv, {
    openDb: async () => ({ ...db, close: async () => {} }),
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    readStdin: async () => stdin,
  });
  return { code, out, err: err.join('\n') };
}

const hashOf = async (syncId: string) => (await findInstallationBySyncId(db, syncId))?.clientIdHash ?? '';

describe('admin command', () => {
  it('create-installation prints one JSON line with the connector token; only hashes are stored', async () => {
    const res = await admin(
      'create-installation',
      '--sync-id',
      'ADMIN001',
      '--client-id',
      'secret-client-0001',
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
    expect(inst?.clientIdHash).not.toContain('secret-client-0001');
    expect(await verifyClientId('secret-client-0001', inst?.clientIdHash ?? '')).toBe(true);
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
    expect(
      (await admin('create-installation', '--sync-id', 'MINI1', '--client-id', 'client-id-x-00001')).code,
    ).toBe(0);
    const inst = await findInstallationBySyncId(db, 'MINI1');
    expect((await getConfiguration(db, inst?.id ?? '')).text).toBe(MINIMAL_CONFIGURATION);
    expect(inst?.premium).toBe(false);
  });

  it('refuses a duplicate sync id', async () => {
    const res = await admin(
      'create-installation',
      '--sync-id',
      'ADMIN001',
      '--client-id',
      'other-client-0001',
    );
    expect(res.code).not.toBe(0);
    expect(res.err).toContain("Une installation avec l'ID de synchronisation ADMIN001 existe déjà.");
  });

  it('refuses an invalid sync id', async () => {
    const res = await admin('create-installation', '--sync-id', 'abc-1', '--client-id', 'client-id-x-00001');
    expect(res.code).not.toBe(0);
    expect(res.err).toContain('majuscules et ne contenir que des lettres et des chiffres');
    expect(await findInstallationBySyncId(db, 'abc-1')).toBeNull();
    const long = await admin(
      'create-installation',
      '--sync-id',
      'A'.repeat(65),
      '--client-id',
      'client-id-x-00001',
    );
    expect(long.err).toContain('ne doit pas dépasser 64 caractères');
  });

  it('refuses an unreadable or non-XML configuration file', async () => {
    const missing = await admin(
      'create-installation',
      '--sync-id',
      'NOFILE',
      '--client-id',
      'client-id-x-00001',
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
      'client-id-x-00001',
      '--config',
      notXml,
    );
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain("n'est pas une configuration XML valide");
    expect(await findInstallationBySyncId(db, 'NOXML')).toBeNull();
  });

  it('refuses a configuration file that is not UTF-8, or declares another encoding; takes UTF-8 with or without BOM', async () => {
    const create = (syncId: string, file: string) =>
      admin('create-installation', '--sync-id', syncId, '--client-id', 'client-id-x-00001', '--config', file);
    const latin = join(tmp, 'latin1.xml');
    writeFileSync(
      latin,
      Buffer.concat([
        Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><Connexion><Info><Exe>Caf'),
        Buffer.from([0xe9]),
        Buffer.from('</Exe></Info></Connexion>'),
      ]),
    );
    const notUtf8 = await create('LATIN1', latin);
    expect(notUtf8.code).not.toBe(0);
    expect(notUtf8.err).toContain("n'est pas encodé en UTF-8");
    expect(await findInstallationBySyncId(db, 'LATIN1')).toBeNull();

    const declared = join(tmp, 'declared.xml');
    writeFileSync(declared, '<?xml version="1.0" encoding="windows-1252"?><Connexion></Connexion>');
    const other = await create('DECLARED', declared);
    expect(other.code).not.toBe(0);
    expect(other.err).toContain("déclare l'encodage « windows-1252 »");
    expect(await findInstallationBySyncId(db, 'DECLARED')).toBeNull();

    const bom = join(tmp, 'bom.xml');
    const text =
      '\uFEFF<?xml version="1.0" encoding="utf-8"?><Connexion><Info><Exe>Café</Exe></Info></Connexion>';
    writeFileSync(bom, text, 'utf8');
    expect((await create('UTF8BOM', bom)).code).toBe(0);
    const inst = await findInstallationBySyncId(db, 'UTF8BOM');
    expect((await getConfiguration(db, inst?.id ?? '')).text).toBe(text);
    await db.query('DELETE FROM installations WHERE id = $1', [inst?.id]); // `list` below counts them
  });

  it('refuses missing arguments and unknown commands or options', async () => {
    const noSync = await admin('create-installation', '--client-id-file', '/nonexistent');
    expect(noSync.code).toBe(2);
    expect(noSync.err).toContain('Argument obligatoire manquant : --sync-id.');
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
    expect(
      (await admin('set-client-id', '--sync-id', 'ADMIN001', '--client-id', 'new-secret-0000001')).code,
    ).toBe(0);
    const after = await findInstallationBySyncId(db, 'ADMIN001');
    expect(await verifyClientId('new-secret-0000001', after?.clientIdHash ?? '')).toBe(true);
    expect(await verifyClientId('secret-client-0001', after?.clientIdHash ?? '')).toBe(false);
    expect(await db.query('SELECT * FROM sessions WHERE installation_id = $1', [inst?.id])).toEqual([]);
    const unknown = await admin('set-client-id', '--sync-id', 'NOPE', '--client-id', 'client-id-x-00001');
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

  it('set-storage-quota sets the installation’s own quota in MB, or gives it the server’s again', async () => {
    const quota = async () =>
      (
        await db.query<{ q: string | null }>(
          `SELECT storage_quota_bytes::text AS q FROM installations WHERE sync_id = 'ADMIN001'`,
        )
      )[0]?.q;
    const set = await admin('set-storage-quota', '--sync-id', 'ADMIN001', '--megabytes', '2048');
    expect(set.code).toBe(0);
    expect(JSON.parse(set.out[0] ?? '')).toEqual({
      syncId: 'ADMIN001',
      storageQuotaBytes: 2048 * 1024 * 1024,
    });
    expect(await quota()).toBe(String(2048 * 1024 * 1024));
    expect((await admin('set-storage-quota', '--sync-id', 'ADMIN001', '--megabytes', 'default')).code).toBe(
      0,
    );
    expect(await quota()).toBeNull();
    const bad = await admin('set-storage-quota', '--sync-id', 'ADMIN001', '--megabytes', 'beaucoup');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--megabytes : nombre entier positif attendu (beaucoup).');
    const zero = await admin('set-storage-quota', '--sync-id', 'ADMIN001', '--megabytes', '0');
    expect(zero.code).toBe(2);
    const [audit] = await db.query<{ action: string }>(
      `SELECT action FROM audit_log WHERE action = 'installation.set-storage-quota' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit?.action).toBe('installation.set-storage-quota');
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
      'secret-client-0001',
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

describe('admin command: the client id', () => {
  it('is generated when none is given, printed once in the JSON line, stored as a hash only', async () => {
    const res = await admin('create-installation', '--sync-id', 'GEN00001');
    expect(res.code, res.err).toBe(0);
    const printed = JSON.parse(res.out[0] ?? '') as { clientId: string };
    expect(printed.clientId).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(await verifyClientId(printed.clientId, await hashOf('GEN00001'))).toBe(true);
    expect(res.err).toBe('');
    const again = await admin('set-client-id', '--sync-id', 'GEN00001');
    const next = JSON.parse(again.out[0] ?? '') as { clientId: string; clientIdChanged: boolean };
    expect(next.clientIdChanged).toBe(true);
    expect(next.clientId).not.toBe(printed.clientId);
    expect(await verifyClientId(next.clientId, await hashOf('GEN00001'))).toBe(true);
    expect(await verifyClientId(printed.clientId, await hashOf('GEN00001'))).toBe(false);
  });

  it('is read from the standard input (--client-id -) or a file (first line), without being printed', async () => {
    const viaStdin = await adminWithStdin(
      'stdin-client-id-0001\nignoré\n',
      'create-installation',
      '--sync-id',
      'STDIN001',
      '--client-id',
      '-',
    );
    expect(viaStdin.code, viaStdin.err).toBe(0);
    expect(viaStdin.err).toBe('');
    expect(viaStdin.out.join('')).not.toContain('stdin-client-id-0001');
    expect(await verifyClientId('stdin-client-id-0001', await hashOf('STDIN001'))).toBe(true);
    const file = join(tmp, 'client-id.txt');
    writeFileSync(file, 'file-client-id-00001\r\n', { mode: 0o600 });
    const viaFile = await admin('set-client-id', '--sync-id', 'STDIN001', '--client-id-file', file);
    expect(viaFile.code, viaFile.err).toBe(0);
    expect(JSON.parse(viaFile.out[0] ?? '')).toEqual({ syncId: 'STDIN001', clientIdChanged: true });
    expect(await verifyClientId('file-client-id-00001', await hashOf('STDIN001'))).toBe(true);
  });

  it('on the command line: accepted with a warning about the shell history', async () => {
    const res = await admin(
      'create-installation',
      '--sync-id',
      'ARGV0001',
      '--client-id',
      'argv-client-id-0001',
    );
    expect(res.code).toBe(0);
    expect(res.err).toContain("reste dans l'historique du shell");
    expect(await verifyClientId('argv-client-id-0001', await hashOf('ARGV0001'))).toBe(true);
  });

  it('shorter than 16 characters, with a control character, unreadable or given twice: refused, nothing written', async () => {
    const file = join(tmp, 'short.txt');
    writeFileSync(file, 'court\n');
    const cases = [
      [
        await admin('create-installation', '--sync-id', 'WEAK0001', '--client-id', '123456789012345'),
        /au moins 16 caractères \(15 reçu\(s\)\)/,
      ],
      [
        await adminWithStdin('court\n', 'create-installation', '--sync-id', 'WEAK0001', '--client-id', '-'),
        /au moins 16 caractères \(5 reçu\(s\)\)/,
      ],
      [
        await adminWithStdin('', 'create-installation', '--sync-id', 'WEAK0001', '--client-id', '-'),
        /au moins 16 caractères \(0 reçu\(s\)\)/,
      ],
      [
        await admin('create-installation', '--sync-id', 'WEAK0001', '--client-id-file', file),
        /au moins 16 caractères/,
      ],
      [
        await admin('create-installation', '--sync-id', 'WEAK0001', '--client-id-file', join(tmp, 'absent')),
        /Impossible de lire le fichier de l'ID Client .* : fichier introuvable\./,
      ],
      [
        await admin(
          'create-installation',
          '--sync-id',
          'WEAK0001',
          '--client-id',
          'tab\there-client-id-0001',
        ),
        /aucun caractère de contrôle/,
      ],
      [
        await admin(
          'create-installation',
          '--sync-id',
          'WEAK0001',
          '--client-id',
          'x'.repeat(16),
          '--client-id-file',
          file,
        ),
        /pas les deux/,
      ],
    ] as const;
    for (const [res, message] of cases) {
      expect(res.code).toBe(2);
      expect(res.err).toMatch(message);
      expect(res.out).toEqual([]);
    }
    expect(await findInstallationBySyncId(db, 'WEAK0001')).toBeNull();
    const before = await hashOf('ARGV0001');
    expect((await admin('set-client-id', '--sync-id', 'ARGV0001', '--client-id', 'court')).code).toBe(2);
    expect(await hashOf('ARGV0001')).toBe(before);
  });
});

describe('admin command: an obviously weak client id is refused', () => {
  it.each([
    ['16 identical characters', 'a'.repeat(16), 'il ne compte que 1 caractère différent (au moins 6)'],
    ['two characters', 'abababababababab', 'il ne compte que 2 caractères différents (au moins 6)'],
    ['five characters', '0000111122223333444', 'il ne compte que 5 caractères différents (au moins 6)'],
    ['one pattern repeated', 'Passw0rdPassw0rd', "c'est le motif «\u00a0Passw0rd\u00a0» répété"],
    ['one pattern repeated, cut short', 'azerty-azerty-azert', "c'est le motif «\u00a0azerty-\u00a0» répété"],
    ['a run of the alphabet', 'abcdefghijklmnopq', "c'est une suite de caractères consécutifs"],
    ['a run of digits downwards', '9876543210/.-,+*)', "c'est une suite de caractères consécutifs"],
  ])('%s (%s)', async (_what, clientId, reason) => {
    const res = await adminWithStdin(
      `${clientId}\n`,
      'create-installation',
      '--sync-id',
      'WEAK0002',
      '--client-id',
      '-',
    );
    expect(res.code).toBe(2);
    expect(res.err).toContain(
      `Erreur : L'ID Client est trop facile à deviner\u00a0: ${reason}. Sans --client-id ni --client-id-file, ` +
        'un ID Client sûr est généré et affiché une fois.',
    );
    expect(res.out).toEqual([]);
    expect(await findInstallationBySyncId(db, 'WEAK0002')).toBeNull();
    const before = await hashOf('ARGV0001');
    const set = await adminWithStdin(
      `${clientId}\n`,
      'set-client-id',
      '--sync-id',
      'ARGV0001',
      '--client-id',
      '-',
    );
    expect(set.code).toBe(2);
    expect(await hashOf('ARGV0001')).toBe(before);
  });

  it.each([
    'stdin-client-id-0001',
    'le chat de la voisine dort',
    'Kq7-vB2x_9LmZ3pR',
    'aaaaaaaaaaaaaaaa-b7X!Qz3',
  ])('accepts %s', async (clientId) => {
    const res = await adminWithStdin(
      `${clientId}\n`,
      'set-client-id',
      '--sync-id',
      'ARGV0001',
      '--client-id',
      '-',
    );
    expect(res.code, res.err).toBe(0);
    expect(await verifyClientId(clientId, await hashOf('ARGV0001'))).toBe(true);
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
    const created = run('create-installation', '--sync-id', 'PROC1', '--client-id', 'abc-client-id-0001');
    expect(created.status).toBe(0);
    expect(JSON.parse(created.stdout.trim())).toMatchObject({ syncId: 'PROC1' });
    const dup = run('create-installation', '--sync-id', 'PROC1', '--client-id', 'abc-client-id-0001');
    expect(dup.status).toBe(1);
    expect(dup.stderr).toContain('existe déjà');
    // --client-id -: the first line of the piped standard input.
    const piped = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        join(SERVER_ROOT, 'src/admin/cli.ts'),
        'set-client-id',
        '--sync-id',
        'PROC1',
        '--client-id',
        '-',
      ],
      {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
        encoding: 'utf8',
        timeout: 60_000,
        input: 'piped-client-id-0001\n',
      },
    );
    expect(piped.status, piped.stderr).toBe(0);
    expect(piped.stdout).not.toContain('piped-client-id-0001');
    expect(JSON.parse(piped.stdout.trim())).toEqual({ syncId: 'PROC1', clientIdChanged: true });
  });
});
