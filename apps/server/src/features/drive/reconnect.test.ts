import type {
  TAuditRow,
  TDriveAccessTokenAnswer,
  TDriveDisconnectAnswer,
  TDriveStatus,
} from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/types.ts';
import { signIn, testApp } from '../../../test/helpers/app.ts';
import { connectorCall, connectorInstallation } from '../../../test/helpers/connector.ts';
import { openTestDb } from '../../../test/helpers/db.ts';
import { testClock, testMailer } from '../../../test/helpers/mail.ts';
import {
  connectDrive,
  scriptedRevocation,
  startProvider,
  type ScriptedRevocation,
  type TestProvider,
} from '../../../test/helpers/oauth-provider.ts';

/**
 * « Connecter » again while a link exists (docs/mail.md, Drive): the new link is stored first,
 * then the grant it replaces is revoked at its provider, bounded, by the same path as
 * « Déconnecter ». The provider's token endpoint is a real OAuth server (oauth2-mock-server); its
 * revocation endpoint a scripted one that accepts, refuses or hangs. A grant left alive is said
 * (`/complement?drive=connected-previous-kept`, the journal), never a token. Both databases.
 */

const REVOCATION_BOUND_MS = 400;

let db: Db;
let provider: TestProvider;
let revocation: ScriptedRevocation;
let app: FastifyInstance;
const clock = testClock();
const logs: string[] = [];

beforeAll(async () => {
  db = await openTestDb();
  provider = await startProvider();
  revocation = await scriptedRevocation();
  app = await testApp(db, {
    now: () => clock.now,
    mailer: testMailer(null),
    drive: { google: { ...provider.client, revocationUrl: revocation.url }, onedrive: null },
    driveRevocationTimeoutMs: REVOCATION_BOUND_MS,
    logStream: { write: (line: string) => logs.push(String(line)) } as unknown as NodeJS.WritableStream,
  });
});
afterEach(() => {
  revocation.answer = 'accept';
  provider.account = 'compte.ged@exemple.fr';
  provider.revoked = false;
});
afterAll(async () => {
  await app.close();
  await revocation.stop();
  await provider.stop();
  await db.close();
});

const status = async (cookie: string) =>
  (await app.inject({ url: '/api/drive', headers: { cookie } })).json<TDriveStatus>();

const driveAudit = async (installationId: string) =>
  db.query<Pick<TAuditRow, 'action' | 'outcome'> & { details: Record<string, unknown> }>(
    `SELECT action, outcome, details FROM audit_log
     WHERE installation_id = $1 AND action LIKE 'drive.%' ORDER BY id`,
    [installationId],
  );

/** An installation linked to `account`; the refresh token the provider gave it. */
async function linked(syncId: string, account: string) {
  const inst = await connectorInstallation(db, syncId);
  const cookie = await signIn(app, syncId);
  provider.account = account;
  expect(await connectDrive(app, cookie)).toBe('/complement?drive=connected');
  return { inst, cookie, first: provider.refreshTokens.at(-1) as string };
}

describe('« Connecter » while a link exists', () => {
  it('another account: the new link is stored, then the previous grant is revoked at the provider', async () => {
    const { inst, cookie, first } = await linked('RELINK01', 'ancien@exemple.fr');
    provider.account = 'nouveau@exemple.fr';
    const before = revocation.forms.length;

    expect(await connectDrive(app, cookie)).toBe('/complement?drive=connected');

    const forms = revocation.forms.slice(before);
    expect(forms.map((f) => f.get('token'))).toEqual([first]);
    expect(forms[0]?.get('token_type_hint')).toBe('refresh_token');
    expect(forms[0]?.get('client_id')).toBe('console-client-id');
    expect((await status(cookie)).link).toMatchObject({ account: 'nouveau@exemple.fr', state: 'connected' });
    // The connector gets the new account's token.
    const token = await connectorCall(app, 'GET', '/drive/access-token', inst.token);
    expect(token.json<TDriveAccessTokenAnswer>().Compte).toBe('nouveau@exemple.fr');
    expect((await driveAudit(inst.id)).slice(1)).toEqual([
      { action: 'drive.connect', outcome: 'success', details: { provider: 'google' } },
      {
        action: 'drive.revoke-previous',
        outcome: 'success',
        details: { provider: 'google', account: 'ancien@exemple.fr', revocation: 'revoked' },
      },
    ]);
  });

  it('the provider refuses the revocation: the new link stands, the screen and the journal say it', async () => {
    const { inst, cookie, first } = await linked('RELINK02', 'ancien@exemple.fr');
    provider.account = 'nouveau@exemple.fr';
    revocation.answer = 'refuse';

    expect(await connectDrive(app, cookie)).toBe('/complement?drive=connected-previous-kept');

    expect(revocation.tokens).toContain(first);
    expect((await status(cookie)).link).toMatchObject({ account: 'nouveau@exemple.fr', state: 'connected' });
    expect((await driveAudit(inst.id)).at(-1)).toEqual({
      action: 'drive.revoke-previous',
      outcome: 'failure',
      details: { provider: 'google', account: 'ancien@exemple.fr', revocation: 'failed' },
    });
    expect(logs.join('\n')).toContain('autorisation précédente du Drive non révoquée');
  });

  it('the provider does not answer: the browser is back within the bound, the new link stands', async () => {
    const { inst, cookie, first } = await linked('RELINK03', 'ancien@exemple.fr');
    provider.account = 'nouveau@exemple.fr';
    revocation.answer = 'hang';

    const started = Date.now();
    expect(await connectDrive(app, cookie)).toBe('/complement?drive=connected-previous-kept');
    expect(Date.now() - started).toBeLessThan(REVOCATION_BOUND_MS + 2_000);

    expect(revocation.tokens).toContain(first);
    expect((await status(cookie)).link).toMatchObject({ account: 'nouveau@exemple.fr', state: 'connected' });
    expect((await driveAudit(inst.id)).at(-1)).toMatchObject({
      action: 'drive.revoke-previous',
      outcome: 'failure',
    });
  });

  it('the same account again: its grant is the new link’s, so it is not revoked', async () => {
    const { inst, cookie } = await linked('RELINK04', 'meme@exemple.fr');
    const before = revocation.forms.length;

    expect(await connectDrive(app, cookie)).toBe('/complement?drive=connected');

    expect(revocation.forms.length).toBe(before);
    expect((await driveAudit(inst.id)).at(-1)).toEqual({
      action: 'drive.revoke-previous',
      outcome: 'success',
      details: { provider: 'google', account: 'meme@exemple.fr', revocation: 'same-grant' },
    });
  });

  it('a link the provider had revoked already: nothing to revoke there', async () => {
    const { inst, cookie } = await linked('RELINK05', 'ancien@exemple.fr');
    provider.revoked = true;
    clock.advance(2 * 3600_000);
    expect((await connectorCall(app, 'GET', '/drive/access-token', inst.token)).statusCode).toBe(409);
    expect((await status(cookie)).link?.state).toBe('revoked');
    provider.revoked = false;
    provider.account = 'nouveau@exemple.fr';
    const before = revocation.forms.length;

    expect(await connectDrive(app, cookie)).toBe('/complement?drive=connected');

    expect(revocation.forms.length).toBe(before);
    expect((await driveAudit(inst.id)).at(-1)?.details).toMatchObject({ revocation: 'already-revoked' });
  });

  it('a token sealed under another SESSION_SECRET cannot be revoked: said, not taken for revoked', async () => {
    const { inst, cookie } = await linked('RELINK07', 'ancien@exemple.fr');
    // What the access token route does with a token it cannot unseal: the link marked revoked.
    await db.query(
      `UPDATE drive_links SET refresh_token = $2, state = 'revoked' WHERE installation_id = $1`,
      [inst.id, Buffer.from('sealed under another key')],
    );
    provider.account = 'nouveau@exemple.fr';
    const before = revocation.forms.length;

    expect(await connectDrive(app, cookie)).toBe('/complement?drive=connected-previous-kept');

    expect(revocation.forms.length).toBe(before);
    expect((await driveAudit(inst.id)).at(-1)).toMatchObject({
      outcome: 'failure',
      details: { revocation: 'failed' },
    });
  });
});

describe('« Déconnecter » takes the same path', () => {
  it('a refused revocation is a failure in the journal; a revoked link is cleared without asking the provider', async () => {
    const { inst, cookie, first } = await linked('RELINK06', 'ancien@exemple.fr');
    revocation.answer = 'refuse';
    const out = await app.inject({ method: 'POST', url: '/api/drive/disconnect', headers: { cookie } });
    expect(out.json<TDriveDisconnectAnswer>()).toMatchObject({ link: null, grantKept: true });
    expect(revocation.tokens).toContain(first);
    expect((await driveAudit(inst.id)).at(-1)).toEqual({
      action: 'drive.disconnect',
      outcome: 'failure',
      details: { provider: 'google', account: 'ancien@exemple.fr', revocation: 'failed' },
    });
  });
});

it('no token of the provider nor the client secret in the logs', () => {
  const all = logs.join('\n');
  expect(provider.refreshTokens.length).toBeGreaterThan(0);
  for (const t of provider.refreshTokens) expect(all).not.toContain(t);
  expect(all).not.toContain(provider.client.clientSecret);
});
