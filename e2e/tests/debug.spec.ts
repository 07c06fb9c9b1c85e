import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { E2E_SYNC_ID } from '../support/env.ts';
import { signIn } from '../support/session.ts';

/** The value shown under a summary card label of the diagnostic. */
function summary(page: Page, label: string) {
  return page
    .locator('dt')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd[1]');
}

// Read-only: the repair is covered by the unit tests, so that the shared e2e installation keeps
// the fixture's text for the other screens.
test.describe('Diagnostic', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
    await page.goto('/debug');
    await expect(
      page.getByRole('heading', { name: 'Diagnostic XML de Configuration', level: 1 }),
    ).toBeVisible();
  });

  test("shows the fixture's diagnostic: valid, with the double-escaping warnings", async ({ page }) => {
    await expect(page).toHaveTitle('Diagnostic XML de Configuration – Synchro');
    await expect(page.getByRole('main')).toContainText(`l'installation ${E2E_SYNC_ID}`);
    await expect(summary(page, 'XML présent')).toHaveText('Oui');
    await expect(summary(page, 'Taille du XML')).toHaveText(/^\d{1,3}(\u202f\d{3})* caractères$/);
    await expect(summary(page, 'XML valide')).toHaveText('Oui');
    await expect(summary(page, 'Extraction possible')).toHaveText('Oui');
    await expect(page.getByText("Erreur d'analyse du XML")).toHaveCount(0);

    const issues = page.getByRole('list', { name: 'Problèmes détectés' });
    const warning = issues.getByRole('listitem').filter({ hasText: 'Avertissement' });
    await expect(warning).toContainText('échappée(s) deux fois');
    await expect(warning).toContainText('&amp;apos;');
    await expect(warning).toContainText(/Ligne \d+ · \d+ occurrences/);
    await expect(page.getByRole('button', { name: 'Réparer le XML automatiquement' })).toBeVisible();

    const table = page.getByRole('table', { name: 'Valeurs extraites' });
    await expect(table.getByRole('row').filter({ hasText: 'NuxiAutomateLibelle' })).toContainText(
      'Version : 6.11.23.9',
    );
    await expect(table.getByRole('row').filter({ hasText: 'NbTerminaux' })).toBeVisible();
  });

  test('asks for confirmation before repairing, and can be cancelled', async ({ page }) => {
    await page.getByRole('button', { name: 'Réparer le XML automatiquement' }).click();
    const dialog = page.getByRole('alertdialog', { name: /Réparer le XML/ });
    await expect(dialog).toContainText('sauvegardée');
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Réparer le XML automatiquement' })).toBeFocused();
  });

  test('has no axe violations', async ({ page }) => {
    await expect(summary(page, 'XML valide')).toHaveText('Oui');
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });
});
