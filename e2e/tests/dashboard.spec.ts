import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { E2E_SYNC_ID } from '../support/env.ts';
import { signIn } from '../support/session.ts';

/** The value shown beside a read-only field label of the dashboard. */
function field(page: Page, label: string) {
  return page
    .locator('dt')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd[1]');
}

test.describe('Général', () => {
  test.beforeEach(async ({ page }) => signIn(page));

  test('shows the values of the fixture configuration and licence', async ({ page }) => {
    await expect(field(page, 'ID de synchronisation')).toHaveText(E2E_SYNC_ID);
    await expect(field(page, 'Logiciel à synchroniser')).toHaveText('EBP GesCom Open Line');
    await expect(field(page, 'Licence Premium')).toHaveText('OUI');
    await expect(field(page, 'Service automate installé')).toContainText('Version : 6.11.23.9');
    // DateMAJConfig 20250305093300664 and DateHeure 20250309080952542 are Paris wall-clock times.
    await expect(field(page, 'Date de configuration')).toHaveText('05/03/2025 09:33 (UTC+1)');
    await expect(field(page, 'Date')).toContainText('09/03/2025 08:09 (UTC+1)');
    await expect(field(page, 'Date')).toContainText('Synchronisation requise');
    await expect(field(page, 'Type')).toHaveText('Complète');
    await expect(field(page, 'Durée totale')).toHaveText('00:04:11');
    await expect(field(page, "Nombre d'enregistrements")).toHaveText('1\u202f838');
    await expect(field(page, 'Vitesse de lecture/écriture')).toContainText('5\u202f927');
    await expect(field(page, 'Volume de données')).toHaveText('3,721 Mo');
    await expect(field(page, 'Terminaux autorisés')).toHaveText('25');
    await expect(field(page, 'Terminaux déclarés')).toHaveText('8');
    await expect(field(page, 'Planifications')).toHaveText('0 Complète / 0 Incrémentale / 0 Importation');
    await expect(field(page, 'Clés API Google restantes')).toHaveText('NC');
    await expect(page.getByText('Cnx 1')).toBeVisible();
  });

  test('shows the support links the server sets, and only those', async ({ page }) => {
    await expect(page.getByRole('link', { name: /^Site support/ })).toHaveAttribute(
      'href',
      'https://support.editeur.example/',
    );
    await expect(page.getByRole('link', { name: /^Espace client/ })).toHaveAttribute(
      'href',
      'https://clients.editeur.example/',
    );
    await expect(page.getByRole('link', { name: /^Assistance à distance/ })).toBeVisible();
    // SUPPORT_EDITOR_URL is not set: no « Site de l'éditeur ».
    await expect(page.getByRole('link', { name: /^Site de l'éditeur/ })).toHaveCount(0);
  });

  // The sync buttons with the automate simulator: sync.spec.ts.

  test('the server IP button shows the public address in an alert', async ({ page }) => {
    await page.getByRole('button', { name: /IP du serveur/ }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText('203.0.113.7');
  });

  test('has no axe violations', async ({ page }) => {
    await expect(field(page, 'Terminaux déclarés')).toHaveText('8');
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });
});

test('the login screen has no axe violations', async ({ page }) => {
  await page.goto('/auth');
  await expect(page.getByRole('button', { name: 'Se connecter' })).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});
