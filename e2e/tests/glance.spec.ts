import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { E2E_BASE_URL, E2E_PORT } from '../support/env.ts';
import {
  connectorToken,
  devisXml,
  postRecords,
  postTransactions,
  record,
  type TransactionInput,
} from '../support/history-data.ts';
import { signIn } from '../support/session.ts';

// Issue 17 (docs/glance.md): Général's « Activité » and « À traiter », the bulk actions of the
// import history, Terminaux's states. Records and transactions of this run are dated 20 days ago
// (a Paris day no other spec writes to) and carry RUN in their references.
const RUN = `G${Date.now().toString(36).toUpperCase()}`;
const TERMINAL = `e2e-${RUN}`;

/** `YYYY-MM-DD` of the Paris day `days` before today. */
function parisDay(days: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(
    new Date(Date.now() - days * 86_400_000),
  );
}
const DAY = parisDay(20);
const SHOTS = path.resolve(import.meta.dirname, '../../docs/screenshots');
const shortDay = `${DAY.slice(8, 10)}/${DAY.slice(5, 7)}/${DAY.slice(0, 4)}`;

test.beforeAll(async () => {
  const token = connectorToken(E2E_PORT);
  await postRecords(
    E2E_BASE_URL,
    token,
    Array.from({ length: 7 }, (_, i) =>
      record({
        IDInterne: `${RUN}-${i + 1}`,
        TypeEnreg: 'DocumentDEVIS',
        RefDoc: `${RUN}-R${i + 1}`,
        DateHeure: `${DAY}T1${i}:15:00`,
        Etat: i < 2 ? -1 : 1,
        Enreg: devisXml(`${RUN}-R${i + 1}`, 'Ciselure & Fils'),
      }),
    ),
  );
  const tx: TransactionInput[] = Array.from({ length: 3 }, (_, i) => ({
    ID: `${RUN}-T${i + 1}`,
    Err: 0,
    DateHeureTrt: `${DAY}T11:0${i}:00`,
    NumTransaction: String(7000 + i),
    TypeDoc: 'DEVIS',
    RefDoc: `${RUN}-R${i + 1}`,
    IDTablette: TERMINAL,
    LibelleTablette: 'Tablette e2e',
    Log: 'ok',
  }));
  await postTransactions(E2E_BASE_URL, token, tx);
});

async function openGeneral(page: Page) {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Activité' })).toBeVisible();
}

test('Général: the chart has the seeded day, its figures on focus, and its table', async ({ page }) => {
  await openGeneral(page);
  const dayLink = page.locator(`a[data-day="${DAY}"]`);
  await dayLink.focus();
  await expect(page.getByTestId('activity-figures')).toContainText(shortDay);
  await expect(page.getByTestId('activity-figures')).toContainText(
    '7 enregistrements importés, 2 en erreur, 3 transactions',
  );
  await page.getByRole('button', { name: 'Afficher le tableau' }).click();
  const row = page.getByTestId('activity-table').getByRole('row', { name: new RegExp(shortDay) });
  await expect(row.getByRole('cell')).toHaveText(['7', '2', '3']);
  await expect(page.getByRole('list', { name: 'À traiter' })).toBeVisible();
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations).toEqual([]);
});

test('Général: a day opens its history; its red part, its errors', async ({ page }) => {
  await openGeneral(page);
  await page.locator(`a[data-day="${DAY}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/import-history\\?day=${DAY}$`));
  await expect(page.getByText(`${RUN}-R7`)).toBeVisible();
  await page.goBack();
  await page.locator(`a[data-errors-day="${DAY}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/import-history\\?day=${DAY}&errors=1$`));
  await expect(page.getByText(`${RUN}-R1`)).toBeVisible();
  await expect(page.getByText(`${RUN}-R7`)).toHaveCount(0);
});

test('Import history: « Tout remettre en attente » the errors of a day after a counted confirmation', async ({
  page,
}) => {
  await signIn(page);
  await page.goto(`/import-history?day=${DAY}&errors=1&search=${RUN}`);
  await expect(page.getByText(`${RUN}-R1`)).toBeVisible();
  await page.getByRole('button', { name: 'Tout remettre en attente' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Remettre en attente 2 enregistrements ?');
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations).toEqual([]);
  await dialog.getByRole('button', { name: 'Tout remettre en attente' }).click();
  await expect(page.getByText('2 enregistrements ont changé d’état.').first()).toBeVisible();
  // Now waiting: the errors filter shows none of them, the waiting filter both.
  await page.goto(`/import-history?waiting=1&search=${RUN}`);
  await expect(page.getByText(`${RUN}-R1`)).toBeVisible();
  await expect(page.getByText(`${RUN}-R2`)).toBeVisible();
  await page.getByRole('button', { name: 'Tout marquer traité' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Marquer 2 enregistrements comme traités ?');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Tout marquer traité' }).click();
  await expect(page.getByText('Aucun enregistrement')).toBeVisible();
});

test('Terminaux: each declared terminal has a state; the trace filters on a terminal', async ({ page }) => {
  await signIn(page);
  await page.goto('/terminals');
  const list = page.getByRole('list', { name: 'Liste des terminaux' });
  await expect(list.getByText(/^(Actif|Jamais vu|Silencieux depuis .+)$/).first()).toBeVisible();
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations).toEqual([]);
  await page.goto(`/transaction-logs?terminal=${TERMINAL}`);
  await expect(page.getByText(`Terminal : ${TERMINAL}`)).toBeVisible();
  const rows = page.getByRole('table', { name: 'Transactions' }).getByRole('row');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1)).toContainText('7002');
});

test('screenshots at 1280 and 375 px', async ({ page }) => {
  await signIn(page);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Activité' })).toBeVisible();
    await page.locator(`a[data-day="${DAY}"]`).hover();
    await page.screenshot({ path: `${SHOTS}/general-activity-${width}.png`, fullPage: true });
    await page.goto(`/import-history?day=${DAY}&search=${RUN}`);
    await expect(page.getByText(`${RUN}-R1`)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/import-history-bulk-${width}.png`, fullPage: true });
    await page.goto('/terminals');
    await page.getByRole('list', { name: 'Liste des terminaux' }).getByRole('button').first().click();
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${SHOTS}/terminals-activity-${width}.png`, fullPage: true });
  }
});
