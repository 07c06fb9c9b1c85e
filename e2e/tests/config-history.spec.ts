import AxeBuilder from '@axe-core/playwright';
import { expect, request, test, type Page } from '@playwright/test';
import { CONFLICT_MESSAGE } from '@synchro/contracts';
import { E2E_BASE_URL, E2E_PORT } from '../support/env.ts';
import { connectorToken } from '../support/history-data.ts';
import { restoreConnectorPartsAfterAll } from '../support/connector.ts';
import { restoreSectionAfterAll } from '../support/sections.ts';
import { signIn } from '../support/session.ts';

// Historique de la configuration and Journal d'audit against the real server: a save from the
// Complément screen, its version and changes (a secret only said « modifiée »), a restore, a
// restore that races a connector write, and the journal showing each of them.

const RUN = Date.now().toString(36);
const ADDRESS = `historique-${RUN}@exemple.fr`;
const KEY = `cle-e2e-${RUN}`;

async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
}

async function connectorPatch(nbEnreg: string) {
  const api = await request.newContext({ baseURL: E2E_BASE_URL });
  try {
    const res = await api.patch('/api/connector/v1/configuration', {
      headers: { Authorization: `Bearer ${connectorToken(E2E_PORT)}` },
      data: { DerSynchro: { NbEnreg: nbEnreg } },
    });
    expect(res.ok(), await res.text()).toBe(true);
  } finally {
    await api.dispose();
  }
}

const card = (page: Page, version: number) =>
  page.getByRole('article', { name: `Version ${version}`, exact: true });

test.describe('Historique de la configuration', () => {
  restoreSectionAfterAll('complement');
  restoreConnectorPartsAfterAll();
  test.beforeEach(async ({ page }) => signIn(page));

  test('a save, its version and changes with a masked secret, a restore, a racing connector write, the journal', async ({
    page,
  }) => {
    // One story from the save to the journal, four axe passes: longer than one screen's test.
    test.setTimeout(120_000);
    // The value before the save, to see it come back.
    await page.goto('/complement');
    const email = page.getByLabel('Notification par email');
    await expect(email).toBeVisible();
    const before = await email.inputValue();
    await email.fill(ADDRESS);
    await page.getByRole('textbox', { name: 'Api de géocodage' }).fill(KEY);
    await page.getByRole('button', { name: 'Valider' }).click();
    await expect(page.getByText('Les paramètres complémentaires ont été mis à jour.').first()).toBeVisible();

    // The menu entry, the version and its summary.
    await page
      .getByRole('navigation', { name: 'Écrans de la console' })
      .getByRole('link', { name: 'Historique de la configuration' })
      .click();
    await expect(
      page.getByRole('heading', { name: 'Historique de la configuration', level: 1 }),
    ).toBeVisible();
    const newest = page.getByRole('article').first();
    await expect(newest).toContainText('Console (127.0.0.1)');
    await expect(newest).toContainText('Version actuelle');
    await expect(newest).toContainText('Complément\u00a0: 2\u00a0paramètres modifiés');
    const saved = Number((await newest.getByRole('heading').textContent())!.replace(/\D/g, ''));
    expect(await axeViolations(page)).toEqual([]);

    // Its changes: the address before and after, the key only « modifiée », the raw XML masked.
    await page.getByRole('button', { name: `Voir les changements de la version ${saved}` }).click();
    const dialog = page.getByRole('dialog', { name: `Changements de la version ${saved}` });
    const addressRow = dialog.getByRole('row', { name: /Notification par email/ });
    await expect(addressRow).toContainText(ADDRESS);
    if (before) await expect(addressRow).toContainText(before);
    await expect(dialog.getByRole('row', { name: /Api de géocodage/ })).toContainText('Clé modifiée');
    await dialog.getByRole('button', { name: 'Voir le XML' }).click();
    const xml = dialog.getByLabel('Différences du XML');
    await expect(xml).toContainText(ADDRESS);
    await expect(xml).toContainText('••••••••');
    await expect(dialog).not.toContainText(KEY);
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    // Restore the version before it: what will change, then a new « Restauration » version.
    await card(page, saved - 1)
      .getByRole('button', { name: `Restaurer la version ${saved - 1}` })
      .click();
    const confirm = page.getByRole('dialog', { name: `Restaurer la version ${saved - 1}` });
    await expect(confirm.getByRole('checkbox', { name: 'Complément' })).toBeChecked();
    await expect(confirm).toContainText('Notification par email');
    expect(await axeViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: /^Restaurer/ }).click();
    await expect(page.getByText(/La configuration a été restaurée\. Nouvelle version/).first()).toBeVisible();
    const restored = page.getByRole('article').first();
    await expect(restored).toContainText('Restauration');
    await expect(restored).toContainText(`Version ${saved + 1}`);
    await expect(restored).toContainText('Complément');
    await page.goto('/complement');
    await expect(page.getByLabel('Notification par email')).toHaveValue(before);

    // A restore racing a connector write: a French 409, nothing written.
    await page.goto('/configuration-history');
    await card(page, saved)
      .getByRole('button', { name: `Restaurer la version ${saved}` })
      .click();
    const race = page.getByRole('dialog', { name: `Restaurer la version ${saved}` });
    await expect(race.getByRole('checkbox', { name: 'Complément' })).toBeChecked();
    await connectorPatch(`77${RUN.length}`);
    await race.getByRole('button', { name: /^Restaurer/ }).click();
    await expect(page.getByText(CONFLICT_MESSAGE).first()).toBeVisible();
    await page.goto('/complement');
    await expect(page.getByLabel('Notification par email')).toHaveValue(before);

    // The connector's updates, folded, then shown.
    await page.goto('/configuration-history');
    await expect(
      page.getByRole('note').filter({ hasText: 'mise à jour du connecteur' }).first(),
    ).toBeVisible();
    await page.getByLabel('Afficher les mises à jour du connecteur').check();
    await expect(page.getByRole('article').first()).toContainText('Connecteur');

    // The journal shows each action.
    await page
      .getByRole('navigation', { name: 'Écrans de la console' })
      .getByRole('link', { name: "Journal d'audit" })
      .click();
    await expect(page.getByRole('heading', { name: "Journal d'audit", level: 1 })).toBeVisible();
    const rows = page.getByRole('row');
    await expect(
      rows.filter({ hasText: 'Restauration de la configuration' }).filter({ hasText: 'Échec' }),
    ).toHaveCount(1);
    await expect(
      rows.filter({ hasText: 'Restauration de la configuration' }).filter({ hasText: 'Réussi' }).first(),
    ).toBeVisible();
    await expect(
      rows.filter({ hasText: 'Enregistrement d’une section' }).filter({ hasText: 'Complément' }).first(),
    ).toBeVisible();
    await expect(
      rows.filter({ hasText: 'Mise à jour de la configuration par le connecteur' }).first(),
    ).toBeVisible();
    await expect(rows.filter({ hasText: 'Connexion réussie' }).first()).toBeVisible();
    await expect(page.getByRole('main')).not.toContainText(KEY);
    expect(await axeViolations(page)).toEqual([]);
    // Filtered by kind.
    await page.getByLabel('Type d’événement').click();
    await page.getByRole('option', { name: 'Connexions' }).click();
    await expect(rows.filter({ hasText: 'Restauration de la configuration' })).toHaveCount(0);
    await expect(rows.filter({ hasText: 'Connexion réussie' }).first()).toBeVisible();
  });

  test('the Diagnostic screen links to the configuration history', async ({ page }) => {
    await page.goto('/debug');
    await page.getByRole('link', { name: 'Historique de la configuration' }).first().click();
    await expect(page).toHaveURL(/\/configuration-history$/);
  });
});
