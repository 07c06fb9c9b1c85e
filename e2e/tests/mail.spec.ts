import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { OAuth2Server } from 'oauth2-mock-server';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { startOwnServer, type OwnServer } from '../support/own-server.ts';
import { signIn } from '../support/session.ts';

/**
 * Complément's two buttons (docs/mail.md): « Test rapport » without a relay (the shared server,
 * as the demo) and with a real SMTP server; « Emails envoyés »; « Connecter » against a real
 * OAuth 2.0 server (a second server with those settings); axe on each state.
 */

/**
 * axe on the page; the email's preview frame runs no script (sandbox), so axe cannot enter it: the
 * email itself is checked on a page of its own (expectAccessibleEmail).
 */
async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).exclude('iframe[title="Aperçu de l’email"]').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

/** The HTML of an email as it was sent, on a page of its own: axe finds nothing in it either. */
async function expectAccessibleEmail(page: Page, baseUrl: string) {
  const list = await page.request.get(`${baseUrl}/api/mail/outbox`);
  const [newest] = ((await list.json()) as { mails: { id: string }[] }).mails;
  const detail = await page.request.get(`${baseUrl}/api/mail/outbox/${newest?.id}`);
  const { html } = (await detail.json()) as { html: string };
  const emailPage = await page.context().newPage();
  await emailPage.setContent(html);
  await expectNoAxeViolations(emailPage);
  await emailPage.close();
}

async function openComplement(page: Page) {
  await page.goto('/complement');
  await expect(page.getByRole('heading', { name: 'Complément', level: 1 })).toBeVisible();
}

test.describe('without a relay (the demo)', () => {
  test.beforeEach(async ({ page }) => signIn(page));

  test('« Test rapport » says no relay is configured; « Emails envoyés » keeps it readable', async ({
    page,
  }) => {
    await openComplement(page);
    await page.getByLabel('Notification par email').fill('essai@exemple.fr');
    await page.getByRole('button', { name: 'Test rapport' }).click();
    await expect(
      page.getByText('Aucun serveur d’envoi configuré (SMTP_URL)', { exact: true }).first(),
    ).toBeVisible();

    const sent = page.getByRole('region', { name: 'Emails envoyés' });
    await expect(sent.getByText('Aucun serveur d’envoi configuré', { exact: true })).toBeVisible();
    const item = sent.getByRole('listitem').filter({ hasText: 'essai@exemple.fr' }).first();
    await expect(item.getByText('Non envoyé : aucun serveur d’envoi configuré')).toBeVisible();
    await expectNoAxeViolations(page);

    await item.getByRole('button', { name: /^Voir l’email/ }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText(/^Rapport de test E2EDEMO1/).first()).toBeVisible();
    const frame = page.frameLocator('iframe[title="Aperçu de l’email"]');
    await expect(frame.getByText('Rapport de test', { exact: true })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await expectAccessibleEmail(page, '');
    // The field's unsaved edit is dropped (nothing saved).
    await page.reload();
  });

  test('« Connecter » explains that this server has no drive configured', async ({ page }) => {
    await openComplement(page);
    await expect(
      page.getByText(/Connexion au Drive non configurée sur ce serveur|Choisissez Google Drive/).first(),
    ).toBeVisible();
    await expect(page.getByText('Bientôt disponible')).toHaveCount(0);
  });
});

test.describe('with a relay and a drive provider', () => {
  let relay: SMTPServer;
  const received: { to: string[]; raw: string }[] = [];
  let provider: OAuth2Server;
  let own: OwnServer;
  let grantWithdrawn = false;

  test.beforeAll(async () => {
    // A server of its own on a fresh embedded database, created then started (two cold starts of
    // PGlite and its migrations): about 30 s on a loaded 2-core machine.
    test.setTimeout(120_000);
    relay = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString(),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    provider = new OAuth2Server();
    await provider.issuer.keys.generate('RS256');
    await provider.start(0, '127.0.0.1');
    provider.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
      token.payload.email = 'ged@exemple.fr';
    });
    // Access tokens of a minute (the server refreshes them at once); refresh tokens refused when
    // the test says the grant was withdrawn at the provider.
    provider.service.on(
      'beforeResponse',
      (
        response: { body: Record<string, unknown>; statusCode: number },
        req: { body: Record<string, string> },
      ) => {
        if (req.body.grant_type === 'authorization_code') response.body.expires_in = 60;
        if (grantWithdrawn && req.body.grant_type === 'refresh_token') {
          response.statusCode = 400;
          response.body = { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' };
        }
      },
    );
    const issuer = (provider.issuer.url ?? '').replace(/\/$/, '');
    own = await startOwnServer({
      SMTP_URL: `smtp://127.0.0.1:${(relay.server.address() as AddressInfo).port}`,
      MAIL_FROM: 'Console Synchro <console@exemple.fr>',
      GOOGLE_DRIVE_CLIENT_ID: 'e2e-client',
      GOOGLE_DRIVE_CLIENT_SECRET: 'e2e-client-secret',
      GOOGLE_DRIVE_AUTH_URL: `${issuer}/authorize`,
      GOOGLE_DRIVE_TOKEN_URL: `${issuer}/token`,
      GOOGLE_DRIVE_REVOKE_URL: `${issuer}/revoke`,
    });
  });
  test.afterAll(async () => {
    await own?.stop();
    await provider?.stop();
    await new Promise<void>((resolve) => (relay ? relay.close(() => resolve()) : resolve()));
  });

  async function signInOwn(page: Page) {
    await page.goto(`${own.url}/auth`);
    await page.getByLabel('ID de synchronisation').fill(own.syncId);
    await page.getByLabel('ID Client').fill(own.clientId);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page).toHaveURL(`${own.url}/`);
    await page.goto(`${own.url}/complement`);
    await expect(page.getByRole('heading', { name: 'Complément', level: 1 })).toBeVisible();
  }

  /** Google Drive chosen (saved) and connected, whatever the tests before left. */
  async function connectGoogle(page: Page) {
    const drive = page.getByRole('combobox', { name: /^Drive pour la GED/ });
    await expect(drive).toBeVisible();
    if (!((await drive.textContent()) ?? '').includes('Google Drive')) {
      await drive.click();
      await page.getByRole('option', { name: 'Google Drive' }).click();
      await page.getByRole('button', { name: 'Valider' }).click();
      await expect(
        page.getByText('Les paramètres complémentaires ont été mis à jour.', { exact: true }).first(),
      ).toBeVisible();
    }
    await page.getByRole('button', { name: 'Connecter', exact: true }).click();
    await expect(page.getByText('Connecté : compte ged@exemple.fr (Google Drive)')).toBeVisible();
  }

  test('« Test rapport » is sent through the relay and listed as sent', async ({ page }) => {
    await signInOwn(page);
    await page.getByLabel('Notification par email').fill('admin@exemple.fr');
    await page.getByRole('button', { name: 'Test rapport' }).click();
    await expect(
      page.getByText('Rapport de test envoyé à admin@exemple.fr', { exact: true }).first(),
    ).toBeVisible();
    expect(received.map((m) => m.to)).toEqual([['admin@exemple.fr']]);
    await expectAccessibleEmail(page, own.url);
    const sent = page.getByRole('region', { name: 'Emails envoyés' });
    await expect(sent.getByRole('listitem').first().getByText('Envoyé', { exact: true })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('« Connecter »: to the provider and back, « Connecté : compte … », then « Déconnecter »', async ({
    page,
  }) => {
    await signInOwn(page);
    const drive = page.getByRole('combobox', { name: /^Drive pour la GED/ });
    await drive.click();
    await page.getByRole('option', { name: 'Google Drive' }).click();
    await page.getByRole('button', { name: 'Valider' }).click();
    await expect(
      page.getByText('Les paramètres complémentaires ont été mis à jour.', { exact: true }).first(),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Connecter', exact: true }).click();
    await expect(page).toHaveURL(`${own.url}/complement`);
    await expect(page.getByText('Drive connecté.', { exact: true }).first()).toBeVisible();
    await expect(page.getByText('Connecté : compte ged@exemple.fr (Google Drive)')).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Déconnecter', exact: true }).click();
    // Asked first (connecting again takes the account's consent again).
    const dialog = page.getByRole('alertdialog', { name: 'Déconnecter le Drive\u202f?' });
    await expect(dialog).toBeVisible();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Déconnecter', exact: true }).click();
    await expect(page.getByText('Drive déconnecté.', { exact: true }).first()).toBeVisible();
    await expect(page.getByText('Non connecté.')).toBeVisible();
  });

  test('a link the provider revoked: « Connexion révoquée », cleared by « Déconnecter » at the keyboard', async ({
    page,
  }) => {
    await signInOwn(page);
    await connectGoogle(page);
    // The provider no longer honours the grant: the connector's next token marks the link revoked.
    grantWithdrawn = true;
    const token = await page.request.get(`${own.url}/api/connector/v1/drive/access-token`, {
      headers: { authorization: `Bearer ${own.connectorToken}` },
    });
    grantWithdrawn = false;
    expect(token.status()).toBe(409);
    await page.reload();
    await expect(
      page.getByText(
        'Connexion révoquée par Google Drive : connectez de nouveau le Drive, ou déconnectez-le.',
      ),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Connecter', exact: true })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Déconnecter', exact: true }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: 'Déconnecter le Drive\u202f?' });
    await expect(dialog.getByRole('button', { name: 'Annuler' })).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(page.getByText('Drive déconnecté.', { exact: true }).first()).toBeVisible();
    await expect(page.getByText('Non connecté.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Déconnecter', exact: true })).toHaveCount(0);
  });

  test('a link of another type than the one chosen is shown as that type’s, and can be cleared', async ({
    page,
  }) => {
    await signInOwn(page);
    await connectGoogle(page);
    await page.getByRole('combobox', { name: /^Drive pour la GED/ }).click();
    await page.getByRole('option', { name: 'OneDrive' }).click();
    await expect(
      page.getByText(
        'Lien enregistré pour Google Drive (compte ged@exemple.fr), qui n’est pas le Drive choisi : déconnectez-le s’il ne sert plus. Connexion au Drive non configurée sur ce serveur (OneDrive).',
      ),
    ).toBeVisible();
    await expect(page.getByText(/^Connecté/)).toHaveCount(0);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Déconnecter', exact: true }).click();
    await page
      .getByRole('alertdialog', { name: 'Déconnecter le Drive\u202f?' })
      .getByRole('button', { name: 'Déconnecter', exact: true })
      .click();
    await expect(page.getByText('Drive déconnecté.', { exact: true }).first()).toBeVisible();
    await expect(
      page.getByText('Connexion au Drive non configurée sur ce serveur', { exact: true }),
    ).toBeVisible();
  });
});
