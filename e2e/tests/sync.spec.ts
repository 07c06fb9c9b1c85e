import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ZSyncHistoryPage } from '@synchro/contracts';
import { restoreConnectorPartsAfterAll } from '../support/connector.ts';
import { E2E_OFFLINE_CLIENT_ID, E2E_OFFLINE_SYNC_ID } from '../support/env.ts';
import { signIn } from '../support/session.ts';

// The sync buttons with the real automate simulator of the e2e installation (started by
// start-server.mjs, --seed 4242, 12 records per import sync, answers after 1.5 s). The syncs it
// plays change the connector's parts of the configuration: they are put back afterwards.
restoreConnectorPartsAfterAll();

/** The value shown beside a read-only field label of the dashboard. */
function field(page: Page, label: string) {
  return page
    .locator('dt')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd[1]');
}

/** Today as the dashboard writes it in Europe/Paris (dd/MM/yyyy). */
const today = () =>
  new Intl.DateTimeFormat('fr-FR', {
    timeZone: 'Europe/Paris',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(new Date());

async function importRecordsTotal(page: Page): Promise<number> {
  const res = await page.request.get('/api/sync-history?page=1&pageSize=25');
  expect(res.ok()).toBe(true);
  return ZSyncHistoryPage.parse(await res.json()).total;
}

/** The sync toast (Radix copies its text to a live region too: the toast itself has data-variant). */
const syncToast = (page: Page) => page.locator('[data-variant]').filter({ hasText: 'Synchronisation' });

test.describe('the sync buttons with the simulator', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
    const status = page.getByRole('group', { name: 'Service automate' });
    // The simulator reports at its start: online within a few seconds of the server's start.
    await expect(async () => {
      await page.reload();
      await expect(status).toContainText('En ligne', { timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await expect(status).toContainText('SRV-E2E · version\u00a06.11.23.9 · dernier signal il y a');
  });

  test("'Complète': busy buttons, success toast, then the simulator's new last sync on the dashboard", async ({
    page,
  }) => {
    await expect(field(page, 'Date')).toContainText('09/03/2025 08:09');
    await page.getByRole('button', { name: 'Complète' }).click();
    await expect(page.getByRole('button', { name: 'Synchronisation en cours...' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Incrémentale' })).toBeDisabled();

    const toast = syncToast(page);
    await expect(toast).toHaveAttribute('data-variant', 'default');
    await expect(toast).toContainText(/synchronisation complète/i);
    await expect(page.getByRole('button', { name: 'Complète' })).toBeEnabled();

    // Written by the simulator through the connector API once it has played the sync.
    await expect(field(page, 'Date')).toContainText(today(), { timeout: 20_000 });
    await expect(field(page, 'Date')).not.toContainText('Synchronisation requise');
    await expect(field(page, 'Type')).toHaveText('Complète');
    await expect(field(page, 'Version du connecteur')).toHaveText('6.19.4');

    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });

  test("'Import des saisies' adds the simulator's import records (read through GET /api/sync-history)", async ({
    page,
  }) => {
    const before = await importRecordsTotal(page);
    // The simulator refuses an order while it still plays the previous sync: wait for it.
    await expect(async () => {
      await page.getByRole('button', { name: 'Import des saisies' }).click();
      await expect(syncToast(page)).toHaveAttribute('data-variant', 'default', { timeout: 4000 });
    }).toPass({ timeout: 30_000 });
    await expect.poll(() => importRecordsTotal(page), { timeout: 20_000 }).toBe(before + 12);
    await expect(field(page, 'Type')).toHaveText('Import des saisies', { timeout: 20_000 });
  });
});

test('an automate silent for over 24 hours shows offline, and an order still goes to it', async ({
  page,
}) => {
  await page.goto('/auth');
  await page.getByLabel('ID de synchronisation').fill(E2E_OFFLINE_SYNC_ID);
  await page.getByLabel('ID Client').fill(E2E_OFFLINE_CLIENT_ID);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/$/);

  const status = page.getByRole('group', { name: 'Service automate' });
  await expect(status).toContainText('Hors ligne');
  await expect(status).toContainText('SRV-ANCIEN · version\u00a06.10.2.1');
  await expect(status).toContainText(
    'aucun signal depuis plus de 24\u00a0heures (dernier il y a 1\u00a0jour)',
  );

  await page.getByRole('button', { name: 'Incrémentale' }).click();
  const toast = syncToast(page);
  await expect(toast).toHaveAttribute('data-variant', 'destructive');
  await expect(toast).toContainText(
    "Attention\u00a0: le service d'automate ne s'est plus signalé depuis 30 heures",
  );
  await expect(toast).toContainText('La communication avec votre serveur a échoué');

  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});
