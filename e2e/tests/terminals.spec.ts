import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { restoreSectionAfterAll } from '../support/sections.ts';
import { signIn } from '../support/session.ts';
import { pickOption } from '../support/select.ts';

// Edits terminal #25 only (free in the fixture), with values that do not depend on earlier runs;
// puts it back afterwards (the dashboard counts the declared terminals).

async function open(page: Page) {
  await page.goto('/terminals');
  await expect(page.getByRole('heading', { name: 'Terminaux', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Liste des terminaux' })).toBeVisible();
}

const terminalList = (page: Page) => page.getByRole('list', { name: 'Liste des terminaux' });
const terminal = (page: Page, n: number) =>
  terminalList(page).getByRole('button', { name: new RegExp(`^#${n} `) });

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

test.describe('Terminaux', () => {
  restoreSectionAfterAll('terminals');
  test.beforeEach(async ({ page }) => signIn(page));

  test('lists the 25 terminals, the 8 declared ones marked', async ({ page }) => {
    await open(page);
    await expect(terminalList(page).getByRole('button')).toHaveCount(25);
    // 8 in the fixture (the edit test below declares #25 too).
    await expect(page.getByText(/^\d+ déclarés sur 25$/)).toBeVisible();
    for (let n = 1; n <= 8; n++) await expect(terminal(page, n)).toContainText('Déclaré');
    await expect(terminal(page, 24)).not.toContainText('Déclaré');
    await expect(page.getByText("Sélectionnez un terminal pour l'éditer")).toBeVisible();
  });

  test('edit, save, reload: the values are kept and the terminal stays selected', async ({ page }) => {
    await open(page);
    await terminal(page, 25).click();
    await expect(page.getByRole('heading', { name: /^Édition du terminal #25 - / })).toBeVisible();
    // A name of its own, so that the form is dirty even when an earlier run saved the same values.
    const name = `Terminal E2E ${Date.now() % 1_000_000}`;
    await page.getByLabel("Nom de l'utilisateur").fill(name);
    await page.getByLabel('Identifiant Tablette / PC').fill('E2E-TAB-25');
    await pickOption(page, page.getByRole('combobox', { name: /^Technicien par défaut/ }), 'MERCIER Julien');
    await page.getByRole('checkbox', { name: 'FAURE Claire' }).check();
    const features = page.getByRole('list', { name: 'Fonctionnalités' });
    await page.getByRole('button', { name: 'Tout Interdire' }).click();
    await features
      .getByRole('button', { name: /: Interdit$/ })
      .first()
      .click();
    await expect(features.getByRole('button', { name: /: Autorisé$/ })).toHaveCount(1);

    // Switching terminal asks first.
    await terminal(page, 24).click();
    const dialog = page.getByRole('alertdialog', { name: 'Modifications non sauvegardées' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Rester sur ce terminal' }).click();
    await expect(page.getByLabel("Nom de l'utilisateur")).toHaveValue(name);

    await page.getByRole('button', { name: 'Valider' }).click();
    await expect(
      page.getByText('Les modifications ont été enregistrées avec succès', { exact: true }).first(),
    ).toBeVisible();
    await expect(page.getByText('Modifications non enregistrées')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: `Édition du terminal #25 - ${name}` })).toBeVisible();
    await expect(terminal(page, 25)).toContainText('Déclaré');

    await page.reload();
    await terminal(page, 25).click();
    await expect(page.getByLabel("Nom de l'utilisateur")).toHaveValue(name);
    await expect(page.getByLabel('Identifiant Tablette / PC')).toHaveValue('E2E-TAB-25');
    await expect(page.getByRole('combobox', { name: /^Technicien par défaut/ })).toHaveText('MERCIER Julien');
    await expect(page.getByRole('checkbox', { name: 'FAURE Claire' })).toBeChecked();
    await expect(
      page.getByRole('list', { name: 'Fonctionnalités' }).getByRole('button', { name: /: Autorisé$/ }),
    ).toHaveCount(1);
  });

  test('on a wide screen both panels are 680 px high; the salariés checklist scrolls past 12rem', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(page);
    const height = async (panel: Locator) => (await panel.boundingBox())?.height;
    const list = page.getByRole('region', { name: 'Liste des terminaux' });
    const empty = page.locator('section').filter({ hasText: "Sélectionnez un terminal pour l'éditer" });
    expect(await height(list)).toBe(680);
    expect(await height(empty)).toBe(680);

    await terminal(page, 1).click();
    const editor = page.getByRole('region', { name: /^Édition du terminal #1 - / });
    await expect(editor).toBeVisible();
    expect(await height(editor)).toBe(680);
    expect(await height(list)).toBe(680);

    const checklist = page.getByRole('group', { name: 'Filtre Commerciaux (Salariés)' }).getByRole('list');
    await expect(checklist).toHaveCSS('max-height', '192px');
    await expect(checklist).toHaveCSS('overflow-y', /^(auto|scroll)$/);
  });

  test('has no axe violations (empty, then editing a terminal)', async ({ page }) => {
    await open(page);
    await expectNoAxeViolations(page);
    await terminal(page, 1).click();
    await expect(page.getByRole('heading', { name: /^Édition du terminal #1 - / })).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
