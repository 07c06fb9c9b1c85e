import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from '../support/session.ts';
import { expectLeaveGuard } from '../support/guard.ts';
import { restoreSectionAfterAll } from '../support/sections.ts';

async function open(page: Page) {
  await page.goto('/sync-data');
  await expect(page.getByRole('heading', { name: 'Données à synchroniser', level: 1 })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Données à synchroniser' })).toBeVisible();
}

test.describe('Données à synchroniser', () => {
  restoreSectionAfterAll('syncData');
  test.beforeEach(async ({ page }) => signIn(page));

  test('edit, save, reload: the values are kept', async ({ page }) => {
    await open(page);
    const liens = page.getByRole('checkbox', { name: 'Articles Liés', exact: true });
    await expect(liens).toBeChecked();
    const planning = page.getByRole('spinbutton', { name: 'Historique de Planning' });
    await expect(planning).toHaveValue('30');
    await expect(planning).toHaveAccessibleDescription('Jours');

    await liens.press('Space');
    await expect(liens).not.toBeChecked();
    await planning.fill('7');
    await expect(planning).toHaveAccessibleDescription('Documents');
    // '.' is refused, above 10000 is ignored.
    await planning.press('.');
    await expect(planning).toHaveValue('7');

    // Leaving asks first.
    await expectLeaveGuard(page, '/sync-data');

    await page.getByRole('button', { name: 'Valider' }).click();
    await expect(
      page.getByText('Les données de synchronisation ont été sauvegardées', { exact: true }).first(),
    ).toBeVisible();
    await expect(page.getByText('Modifications non enregistrées')).toHaveCount(0);

    await page.reload();
    await expect(page.getByRole('checkbox', { name: 'Articles Liés', exact: true })).not.toBeChecked();
    await expect(page.getByRole('spinbutton', { name: 'Historique de Planning' })).toHaveValue('7');
    await expect(page.getByRole('checkbox', { name: 'Tout', exact: true })).toHaveAttribute(
      'data-state',
      'indeterminate',
    );
  });

  test('a history cleared and saved is still offered after a reload', async ({ page }) => {
    await open(page);
    const affaires = page.getByRole('spinbutton', { name: 'Historique de Affaires', exact: true });
    await expect(affaires).toHaveValue('9000');
    await affaires.fill('');
    await page.getByRole('button', { name: 'Valider' }).click();
    await expect(
      page.getByText('Les données de synchronisation ont été sauvegardées', { exact: true }).first(),
    ).toBeVisible();
    await page.reload();
    const again = page.getByRole('spinbutton', { name: 'Historique de Affaires', exact: true });
    await expect(again).toHaveValue('');
    await again.fill('15');
    await expect(again).toHaveAccessibleDescription('Jours');
  });

  test('has no axe violations', async ({ page }) => {
    await open(page);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });
});
