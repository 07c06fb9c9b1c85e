import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from '../support/session.ts';
import { expectLeaveGuard } from '../support/guard.ts';
import { restoreSectionAfterAll } from '../support/sections.ts';
import { pickOption } from '../support/select.ts';

async function open(page: Page, path: string, title: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Valider' })).toBeVisible();
}

async function saveAndExpect(page: Page, message: string) {
  await page.getByRole('button', { name: 'Valider' }).click();
  await expect(page.getByText(message, { exact: true }).first()).toBeVisible();
  await expect(page.getByText('Modifications non enregistrées')).toHaveCount(0);
}

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

test.describe('Paramètres', () => {
  restoreSectionAfterAll('sources');
  restoreSectionAfterAll('externalLinks');
  restoreSectionAfterAll('complement');
  test.beforeEach(async ({ page }) => signIn(page));

  test('Base de données source: edit, save, reload, the value is kept (and the stored password too)', async ({
    page,
  }) => {
    await open(page, '/database', 'Base de données source');
    const block = page.getByRole('region', { name: 'Connexion 2' });
    await block.getByLabel('Serveur').fill('SRV-E2E\\SQL');
    await pickOption(page, block.getByRole('combobox', { name: /^Provider/ }), 'ODBC 32/64 bits');
    await expectLeaveGuard(page, '/database');
    await saveAndExpect(page, 'Les paramètres de connexion ont été sauvegardés');

    await page.reload();
    const again = page.getByRole('region', { name: 'Connexion 2' });
    await expect(again.getByLabel('Serveur')).toHaveValue('SRV-E2E\\SQL');
    await expect(again.getByRole('combobox', { name: /^Provider/ })).toHaveText('ODBC 32/64 bits');
    await expect(
      page.getByRole('region', { name: 'Connexion 1' }).getByLabel('Mot de passe', { exact: true }),
    ).toHaveAttribute('placeholder', '••••••••');
  });

  test('Base de données source: a stored password does not follow a new server (hint, refusal, nothing saved)', async ({
    page,
  }) => {
    await open(page, '/database', 'Base de données source');
    const block = page.getByRole('region', { name: 'Connexion 1' });
    const stored = await block.getByLabel('Serveur').inputValue();
    await block.getByLabel('Serveur').fill('serveur-tiers.example');
    const password = block.getByLabel('Mot de passe', { exact: true });
    await expect(password).toHaveAttribute('aria-invalid', 'true');
    await expect(block.getByText(/^Serveur a changé.: saisissez à nouveau le mot de passe\./)).toBeVisible();
    await page.getByRole('button', { name: 'Valider' }).click();
    await expect(
      page.getByText(/^Connexion 1.: Serveur a changé, saisissez à nouveau le mot de passe\./).first(),
    ).toBeVisible();
    await expect(page.getByText('Modifications non enregistrées')).toBeVisible();
    const saved = await page.request.get('/api/config/sources');
    expect((await saved.json()).data.sources[0].Serveur).toBe(stored);
    // Typing the password again clears the warning (not saved here: the shared database keeps its password).
    await password.fill('retape-le-mot-de-passe');
    await expect(password).not.toHaveAttribute('aria-invalid', 'true');
    await expect(block.getByText(/Serveur a changé/)).toHaveCount(0);
  });

  test('Liaisons externes: edit, save, reload, the value is kept', async ({ page }) => {
    await open(page, '/external-links', 'Liaisons externes');
    await page.getByLabel("Dossier d'import").fill('D:\\Echanges\\Import E2E');
    const block = page.getByRole('region', { name: 'Logiciel maître 2' });
    await block.getByLabel('Utilisateur logiciel').fill('e2e-user');
    await expectLeaveGuard(page, '/external-links');
    await saveAndExpect(page, 'Les liaisons externes ont été mises à jour avec succès.');

    await page.reload();
    await expect(page.getByLabel("Dossier d'import")).toHaveValue('D:\\Echanges\\Import E2E');
    await expect(
      page.getByRole('region', { name: 'Logiciel maître 2' }).getByLabel('Utilisateur logiciel'),
    ).toHaveValue('e2e-user');
  });

  test('Complément: an invalid address blocks the save; edit, save, reload, the values are kept', async ({
    page,
  }) => {
    await open(page, '/complement', 'Complément');
    const email = page.getByLabel('Notification par email');
    await email.fill('rapport@exemple');
    await page.getByRole('button', { name: 'Valider' }).click();
    await expect(email).toBeFocused();
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(/^Adresse email invalide/)).toBeVisible();

    await email.fill('rapport@exemple.fr');
    await page.getByRole('checkbox', { name: 'Notification Info' }).click();
    await page.getByLabel('Script complémentaire').press('Control+End');
    await page.getByLabel('Script complémentaire').pressSequentially('\nE2E=1');
    await expectLeaveGuard(page, '/complement');
    await saveAndExpect(page, 'Les paramètres complémentaires ont été mis à jour.');

    await page.reload();
    await expect(page.getByLabel('Notification par email')).toHaveValue('rapport@exemple.fr');
    await expect(page.getByRole('checkbox', { name: 'Notification Info' })).toBeChecked();
    await expect(page.getByLabel('Script complémentaire')).toHaveValue(/\nE2E=1$/);
  });

  for (const [path, title] of [
    ['/database', 'Base de données source'],
    ['/external-links', 'Liaisons externes'],
    ['/complement', 'Complément'],
  ] as const) {
    test(`${title} has no axe violations`, async ({ page }) => {
      await open(page, path, title);
      await expectNoAxeViolations(page);
    });
  }
});
