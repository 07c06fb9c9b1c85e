import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { restoreSectionAfterAll } from '../support/sections.ts';
import { signIn } from '../support/session.ts';

async function open(page: Page) {
  await page.goto('/exclusions/family');
  await expect(page.getByRole('heading', { name: 'Exclusions de la synchro', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Famille articles', level: 2 })).toBeVisible();
}

test.describe('Exclusions de la synchro', () => {
  restoreSectionAfterAll('exclusions');
  test.beforeEach(async ({ page }) => signIn(page));

  test('edit, save, reload: the values are kept (a checked family disables its sub-families)', async ({
    page,
  }) => {
    await open(page);
    const articles = page.getByRole('region', { name: 'Famille articles' });
    await articles.getByRole('button', { name: 'Afficher les sous-familles de PUZZLES' }).click();
    const puzzles = articles.getByRole('checkbox', { name: 'PUZZLES', exact: true });
    const minus = articles.getByRole('checkbox', { name: 'Puzzle - 900 pièces' });
    await expect(puzzles).not.toBeChecked();
    await expect(minus).toBeChecked();

    await puzzles.press('Space');
    await expect(puzzles).toBeChecked();
    await expect(articles.getByRole('checkbox', { name: 'Puzzle + 900 pièces' })).toBeDisabled();
    await expect(articles.getByRole('checkbox', { name: 'Puzzle + 900 pièces' })).toBeChecked();

    const clients = page.getByRole('region', { name: 'Famille clients' });
    await clients.getByRole('searchbox', { name: 'Filtrer famille clients' }).fill('autres');
    await clients.getByRole('checkbox', { name: 'Autres' }).click();
    await expect(page.getByText('Modifications non enregistrées')).toBeVisible();

    await page.getByRole('button', { name: 'Valider' }).click();
    await expect(
      page.getByText('Les exclusions ont été mises à jour.', { exact: true }).first(),
    ).toBeVisible();
    await expect(page.getByText('Modifications non enregistrées')).toHaveCount(0);

    await page.reload();
    const again = page.getByRole('region', { name: 'Famille articles' });
    await expect(again.getByRole('checkbox', { name: 'PUZZLES', exact: true })).toBeChecked();
    await again.getByRole('button', { name: 'Afficher les sous-familles de PUZZLES' }).click();
    await expect(again.getByRole('checkbox', { name: 'Puzzle - 900 pièces' })).toBeDisabled();
    await expect(
      page.getByRole('region', { name: 'Famille clients' }).getByRole('checkbox', { name: 'Autres' }),
    ).toBeChecked();

    // Unchecking the family leaves its sub-families unchecked (only family| was stored); this also
    // brings back the fixture's exclusions.
    await again.getByRole('checkbox', { name: 'PUZZLES', exact: true }).click();
    await expect(again.getByRole('checkbox', { name: 'Puzzle - 900 pièces' })).toBeEnabled();
    await again.getByRole('checkbox', { name: 'Puzzle - 900 pièces' }).click();
    await page
      .getByRole('region', { name: 'Famille clients' })
      .getByRole('checkbox', { name: 'Autres' })
      .click();
    await page.getByRole('button', { name: 'Valider' }).click();
    await expect(page.getByText('Modifications non enregistrées')).toHaveCount(0);
  });

  test('has no axe violations (sub-families open)', async ({ page }) => {
    await open(page);
    await page
      .getByRole('region', { name: 'Famille clients' })
      .getByRole('button', { name: "Afficher les sous-familles de Comités d'entreprise" })
      .click();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });
});
