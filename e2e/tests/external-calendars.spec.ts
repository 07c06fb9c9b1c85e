import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { restoreSectionAfterAll } from '../support/sections.ts';
import { signIn } from '../support/session.ts';
import { pickOption } from '../support/select.ts';

const SAVED = 'Les agendas externes ont été mis à jour avec succès.';

async function open(page: Page) {
  await page.goto('/external-calendars');
  await expect(page.getByRole('heading', { name: 'Agendas externes', level: 1 })).toBeVisible();
  await expect(page.getByRole('combobox', { name: /^Type d'agenda/ })).toBeVisible();
}

async function pick(page: Page, combobox: string | RegExp, option: string) {
  const trigger = page.getByRole(
    'combobox',
    typeof combobox === 'string' ? { name: combobox, exact: true } : { name: combobox },
  );
  await pickOption(page, trigger, option);
}

async function save(page: Page) {
  await page.getByRole('button', { name: 'Valider' }).click();
  await expect(page.getByText(SAVED, { exact: true }).first()).toBeVisible();
  await expect(page.getByText('Modifications non enregistrées')).toHaveCount(0);
}

test.describe('Agendas externes', () => {
  restoreSectionAfterAll('externalCalendars');
  test.beforeEach(async ({ page }) => signIn(page));

  test('edit the type and a row, save, reload: kept', async ({ page }) => {
    await open(page);
    await expect(page.getByRole('combobox', { name: /^Type d'agenda/ })).toHaveText(
      'Compte Gmail Google Agenda',
    );
    await expect(page.getByRole('combobox', { name: 'Salarié de la ligne 1', exact: true })).toHaveText(
      'Hugo BERGER',
    );
    await expect(page.getByRole('combobox', { name: 'Salarié de la ligne 2', exact: true })).toHaveText(
      'Libre',
    );

    await pick(page, /^Type d'agenda/, 'Compte Office 365 Outlook');
    await pick(page, 'Salarié de la ligne 2', 'Claire FAURE');
    await expect(page.getByText('Modifications non enregistrées')).toBeVisible();
    await save(page);

    await page.reload();
    await expect(page.getByRole('combobox', { name: /^Type d'agenda/ })).toHaveText(
      'Compte Office 365 Outlook',
    );
    await expect(page.getByRole('combobox', { name: 'Salarié de la ligne 2', exact: true })).toHaveText(
      'Claire FAURE',
    );
  });

  test('has no axe violations', async ({ page }) => {
    await open(page);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });
});
