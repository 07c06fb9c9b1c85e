import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { restoreSectionAfterAll } from '../support/sections.ts';
import { pickOption } from '../support/select.ts';
import { signIn } from '../support/session.ts';
import { shots } from '../support/shots.ts';

const TITLE = 'Planification des synchronisations';
const SAVED = 'Les planifications ont été sauvegardées avec succès';
const PARIS = "GMT+1 Heure d'Europe centrale (Paris, Bruxelles)";

async function open(page: Page) {
  await page.goto('/planning');
  await expect(page.getByRole('heading', { name: TITLE, level: 1 })).toBeVisible();
  await expect(page.getByRole('combobox', { name: /^Fuseau horaire/ })).toBeVisible();
}

async function pick(page: Page, combobox: string | RegExp, option: string) {
  await pickOption(page, page.getByRole('combobox', { name: combobox }), option);
}

async function save(page: Page) {
  await page.getByRole('button', { name: 'Valider' }).click();
  await expect(page.getByText(SAVED, { exact: true }).first()).toBeVisible();
  await expect(page.getByText('Modifications non enregistrées')).toHaveCount(0);
}

test.describe('Planification', () => {
  restoreSectionAfterAll('planifications');
  test.beforeEach(async ({ page }) => signIn(page));

  test('add a schedule and change the zone, save, reload: kept; the dashboard counts it', async ({
    page,
  }) => {
    // Two save-and-reload rounds and a visit of Général: about 15 s alone, past 30 s on a busy machine.
    test.slow();
    await open(page);
    await expect(page.getByText(/^Aucune planification trouvée\./)).toBeVisible();
    await expect(page.getByRole('combobox', { name: /^Fuseau horaire/ })).toHaveText(PARIS);

    await page.getByRole('button', { name: 'Ajouter' }).click();
    await pick(page, 'Heure de synchronisation, planification 1', '06:15');
    await pick(page, 'Type de synchronisation, planification 1', 'Incrémentale');
    await page.getByRole('button', { name: 'Ajouter' }).click();
    await pick(page, 'Jour de synchronisation, planification 2', 'Samedi');
    await pick(page, /^Fuseau horaire/, 'GMT+4 La Réunion');
    await expect(page.getByRole('note')).toContainText('UTC+4');
    await expect(page.getByText('Modifications non enregistrées')).toBeVisible();
    await save(page);

    await page.reload();
    await expect(page.getByRole('combobox', { name: /^Fuseau horaire/ })).toHaveText('GMT+4 La Réunion');
    await expect(
      page.getByRole('combobox', { name: 'Heure de synchronisation, planification 1' }),
    ).toHaveText('06:15');
    await expect(page.getByRole('combobox', { name: 'Type de synchronisation, planification 1' })).toHaveText(
      'Incrémentale',
    );
    await expect(page.getByRole('combobox', { name: 'Jour de synchronisation, planification 2' })).toHaveText(
      'Samedi',
    );

    await page.goto('/');
    await expect(page.getByText('1 Complète / 1 Incrémentale / 0 Importation')).toBeVisible();

    // Back to the fixture's values (Paris, no schedule) through the screen: deleting rows saves too.
    await open(page);
    await page.getByRole('button', { name: /^Supprimer la planification 2 / }).click();
    await page.getByRole('button', { name: /^Supprimer la planification 1 / }).click();
    await pick(page, /^Fuseau horaire/, PARIS);
    await save(page);
    await page.reload();
    await expect(page.getByText(/^Aucune planification trouvée\./)).toBeVisible();
    await expect(page.getByRole('combobox', { name: /^Fuseau horaire/ })).toHaveText(PARIS);
  });

  test('next runs across the spring change of Europe/Paris: 02:30 on the last Sunday of March runs at 03:30 (UTC+2)', async ({
    page,
  }) => {
    // The browser's clock on Friday 28 March 2025, 13:00 in Paris; the server keeps its own.
    await page.clock.setFixedTime(new Date('2025-03-28T12:00:00Z'));
    await open(page);
    await page.getByRole('button', { name: 'Ajouter' }).click();
    await pick(page, 'Heure de synchronisation, planification 1', '02:30');
    const complete = page.getByRole('region', { name: 'Complète' });
    await expect(complete.getByRole('listitem')).toHaveText([
      'samedi 29/03/2025 02:30 (UTC+1)',
      'dimanche 30/03/2025 03:30 (UTC+2)',
      'lundi 31/03/2025 02:30 (UTC+2)',
      'mardi 01/04/2025 02:30 (UTC+2)',
      'mercredi 02/04/2025 02:30 (UTC+2)',
    ]);
    await expect(page.getByRole('region', { name: 'Incrémentale' })).toContainText(
      'Aucune synchronisation planifiée.',
    );
    // The runs under the sticky header and the save bar, at each width.
    await shots(page, 'planning-next-runs', () =>
      page
        .getByRole('heading', { name: 'Prochaines synchronisations' })
        .evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 100)),
    );
    // Another zone, without summer time: the same line read in Tokyo.
    await pick(page, /^Fuseau horaire/, 'GMT+9 Japon (Tokyo)');
    await expect(complete.getByRole('listitem').first()).toHaveText('samedi 29/03/2025 02:30 (UTC+9)');
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });

  test('next runs across the autumn change of Europe/Paris: 02:30 on the last Sunday of October runs once, at UTC+2', async ({
    page,
  }) => {
    // Friday 24 October 2025, 13:00 in Paris (UTC+2); the clocks go back at 03:00 on Sunday the 26th.
    await page.clock.setFixedTime(new Date('2025-10-24T11:00:00Z'));
    await open(page);
    await page.getByRole('button', { name: 'Ajouter' }).click();
    await pick(page, 'Heure de synchronisation, planification 1', '02:30');
    await expect(page.getByRole('region', { name: 'Complète' }).getByRole('listitem')).toHaveText([
      'samedi 25/10/2025 02:30 (UTC+2)',
      'dimanche 26/10/2025 02:30 (UTC+2)',
      'lundi 27/10/2025 02:30 (UTC+1)',
      'mardi 28/10/2025 02:30 (UTC+1)',
      'mercredi 29/10/2025 02:30 (UTC+1)',
    ]);
  });

  test('has no axe violations, with rows', async ({ page }) => {
    await open(page);
    await page.getByRole('button', { name: 'Ajouter' }).click();
    await expect(page.getByRole('table')).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });
});
