import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { E2E_BASE_URL, E2E_OFFLINE_CLIENT_ID, E2E_OFFLINE_SYNC_ID, E2E_PORT } from '../support/env.ts';
import {
  connectorToken,
  devisXml,
  offlineConnectorToken,
  postRecords,
  postTransactions,
  record,
  type TransactionInput,
} from '../support/history-data.ts';
import { signIn } from '../support/session.ts';
import { shots } from '../support/shots.ts';

// Issue 17 (docs/glance.md): Général's « Activité » and « À traiter », the bulk actions of the
// import history, Terminaux's states. The e2e installation gets the records and transactions of
// this run on Paris days no other spec writes to (1 to 29 days ago): DAY (20 days ago) has exact
// figures and RUN in its references; LIVE_DAY (25 days ago) stays empty until the live test sends
// its records; the other days get a background (prefix BG) that gives the chart its shape.
// Terminaux's states are read on the second installation, E2EOFF01, where only this spec writes.
const STAMP = Date.now().toString(36).slice(-5).toUpperCase();
const RUN = `G${STAMP}`;
const BG = `K${STAMP}`;
const TERMINAL = `e2e-${RUN}`;

/** `YYYY-MM-DD` of the Paris day `days` before today. */
function parisDay(days: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(
    new Date(Date.now() - days * 86_400_000),
  );
}
const longDay = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
const DAY = parisDay(20);
const LIVE_DAY = parisDay(25);

/** The background of day `n` days ago: a few records (some in error) and transactions. */
function background(n: number) {
  const day = parisDay(n);
  const records = 4 + ((n * 7) % 11);
  const errors = n % 4 === 0 ? 2 : n % 3 === 0 ? 1 : 0;
  const transactions = 2 + ((n * 5) % 9);
  return { day, records, errors, transactions };
}
const BACKGROUND_DAYS = Array.from({ length: 29 }, (_, i) => i + 1).filter((n) => n !== 20 && n !== 25);

test.beforeAll(async () => {
  const token = connectorToken(E2E_PORT);
  await postRecords(E2E_BASE_URL, token, [
    ...Array.from({ length: 7 }, (_, i) =>
      record({
        IDInterne: `${RUN}-${i + 1}`,
        TypeEnreg: 'DocumentDEVIS',
        RefDoc: `${RUN}-R${i + 1}`,
        DateHeure: `${DAY}T1${i}:15:00`,
        Etat: i < 2 ? -1 : 1,
        Enreg: devisXml(`${RUN}-R${i + 1}`, 'Ciselure & Fils'),
      }),
    ),
    ...BACKGROUND_DAYS.flatMap((n) => {
      const b = background(n);
      return Array.from({ length: b.records }, (_, k) =>
        record({
          IDInterne: `${BG}-${n}-${k}`,
          TypeEnreg: 'DocumentDEVIS',
          RefDoc: `${BG}-${n}-${k}`,
          DateHeure: `${b.day}T${String(8 + (k % 10)).padStart(2, '0')}:${String((k * 7) % 60).padStart(2, '0')}:00`,
          Etat: k < b.errors ? -1 : 1,
          Enreg: devisXml(`${BG}-${n}-${k}`, 'Fonderie Mercier'),
        }),
      );
    }),
  ]);
  const tx: TransactionInput[] = [
    ...Array.from({ length: 3 }, (_, i) => ({
      ID: `${RUN}-T${i + 1}`,
      Err: 0 as const,
      DateHeureTrt: `${DAY}T11:0${i}:00`,
      NumTransaction: String(7000 + i),
      TypeDoc: 'DEVIS',
      RefDoc: `${RUN}-R${i + 1}`,
      IDTablette: TERMINAL,
      LibelleTablette: 'Tablette e2e',
      Log: 'ok',
    })),
    ...BACKGROUND_DAYS.flatMap((n) => {
      const b = background(n);
      return Array.from({ length: b.transactions }, (_, k) => ({
        ID: `${BG}-T${n}-${k}`,
        Err: 0 as const,
        DateHeureTrt: `${b.day}T${String(9 + (k % 8)).padStart(2, '0')}:30:00`,
        NumTransaction: String(8000 + n * 20 + k),
        TypeDoc: 'DEVIS',
        RefDoc: `${BG}-${n}-${k}`,
        IDTablette: `e2e-${BG}`,
        LibelleTablette: 'Tablette e2e',
        Log: 'ok',
      }));
    }),
  ];
  await postTransactions(E2E_BASE_URL, token, tx);

  // E2EOFF01 (same terminals as the fixture): #1 « pixel 8 » exchanged 10 and 20 minutes ago (one
  // in error), #2 « Windev Windows » three days ago, #3 « Tablette atelier » never.
  const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
  const exchange = (id: string, tablet: string, at: string, err: 0 | 1): TransactionInput => ({
    ID: `${RUN}-${id}`,
    Err: err,
    DateHeureTrt: at,
    NumTransaction: id,
    TypeDoc: 'DEVIS',
    RefDoc: `${RUN}-${id}`,
    IDTablette: tablet,
    LibelleTablette: 'Terminal',
    Log: err ? 'Erreur : stock insuffisant' : 'ok',
  });
  await postTransactions(E2E_BASE_URL, offlineConnectorToken(E2E_PORT), [
    exchange('A1', '815bf75ff86d94fa', ago(10 * 60_000), 0),
    exchange('A2', '815bf75ff86d94fa', ago(20 * 60_000), 1),
    exchange('B1', '7047d7410', ago(3 * 86_400_000 + 3_600_000), 0),
  ]);
});

async function openGeneral(page: Page) {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Activité' })).toBeVisible();
}

/** Scrolls the window so that `target` starts `gap` px under the sticky header (64 px). */
async function scrollUnderHeader(target: Locator, gap: number) {
  await target.evaluate(
    (el, below) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 64 - below),
    gap,
  );
}

const tableRow = (page: Page, day: string) =>
  page.getByTestId('activity-table').getByRole('row', { name: new RegExp(longDay(day)) });

test('Général: the chart has the seeded days, their figures on focus, and its table', async ({ page }) => {
  // Hovers, the table and an axe pass: 26 s measured at load 18 on 2 cores, near the 30 s limit.
  test.slow();
  await openGeneral(page);
  await page.locator(`a[data-day="${DAY}"]`).focus();
  await expect(page.getByTestId('activity-figures')).toContainText(longDay(DAY));
  await expect(page.getByTestId('activity-figures')).toContainText(
    '7 enregistrements importés, 2 en erreur, 3 transactions',
  );
  // Thirty days, each a link to its history; the background's days with their figures.
  await expect(page.locator('a[data-day]')).toHaveCount(30);
  const other = background(6);
  await page.locator(`a[data-day="${other.day}"]`).hover();
  await expect(page.getByTestId('activity-figures')).toContainText(
    `${other.records} enregistrements importés, ${other.errors} en erreur, ${other.transactions} transactions`,
  );
  // The table alternative: one row per day, the same figures.
  await page.getByRole('button', { name: 'Afficher le tableau' }).click();
  await expect(page.getByTestId('activity-table').getByRole('row')).toHaveCount(31);
  await expect(tableRow(page, DAY).getByRole('cell')).toHaveText(['7', '2', '3']);
  await expect(tableRow(page, other.day).getByRole('cell')).toHaveText([
    String(other.records),
    String(other.errors),
    String(other.transactions),
  ]);
  await expect(page.getByRole('list', { name: 'À traiter' })).toBeVisible();
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await page.getByRole('button', { name: 'Masquer le tableau' }).click();
  await shots(page, 'general-activity', async () => {
    // The « À traiter » card's title (its top edge 40 px above it) just under the header.
    await scrollUnderHeader(page.getByRole('heading', { name: 'À traiter' }), 48);
    await page.locator(`a[data-day="${DAY}"]`).hover();
  });
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

test('Général: records and transactions the connector sends while the page is open show up in place', async ({
  page,
}) => {
  await openGeneral(page);
  await page.getByRole('button', { name: 'Afficher le tableau' }).click();
  await expect(tableRow(page, LIVE_DAY).getByRole('cell')).toHaveText(['0', '0', '0']);
  // Marks this document: a reload would lose it.
  await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));
  // Let the page open its event stream.
  await page.waitForTimeout(1000);
  const token = connectorToken(E2E_PORT);
  await postRecords(
    E2E_BASE_URL,
    token,
    Array.from({ length: 4 }, (_, i) =>
      record({
        IDInterne: `${RUN}-L${i}`,
        TypeEnreg: 'DocumentDEVIS',
        RefDoc: `${RUN}-L${i}`,
        DateHeure: `${LIVE_DAY}T14:0${i}:00`,
        Etat: i === 0 ? -1 : 1,
        Enreg: devisXml(`${RUN}-L${i}`, 'Live & Fils'),
      }),
    ),
  );
  await postTransactions(
    E2E_BASE_URL,
    token,
    [0, 1].map((i) => ({
      ID: `${RUN}-LT${i}`,
      Err: 0,
      DateHeureTrt: `${LIVE_DAY}T15:0${i}:00`,
      NumTransaction: String(9100 + i),
      TypeDoc: 'DEVIS',
      RefDoc: `${RUN}-L${i}`,
      IDTablette: `e2e-${BG}`,
      LibelleTablette: 'Tablette e2e',
      Log: 'ok',
    })),
  );
  await expect(tableRow(page, LIVE_DAY).getByRole('cell')).toHaveText(['4', '1', '2']);
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
});

test('Import history: « Tout remettre en attente » the errors of a day after a counted confirmation', async ({
  page,
}) => {
  test.slow();
  await signIn(page);
  await page.goto(`/import-history?day=${DAY}&errors=1&search=${RUN}`);
  await expect(page.getByText(`${RUN}-R1`)).toBeVisible();
  await page.getByRole('button', { name: 'Tout remettre en attente' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Remettre en attente 2 enregistrements ?');
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await shots(page, 'import-history-bulk');
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

test('Terminaux: « Actif », « Silencieux depuis … », « Jamais vu », with the last exchange and the last 24 hours', async ({
  page,
}) => {
  await signIn(page, E2E_OFFLINE_SYNC_ID, E2E_OFFLINE_CLIENT_ID);
  await page.goto('/terminals');
  const list = page.getByRole('list', { name: 'Liste des terminaux' });
  const card = (n: number) => list.getByRole('button', { name: new RegExp(`^#${n} `) });
  await expect(card(1)).toContainText('Actif');
  await expect(card(1)).toContainText(/Dernier échange il y a (9|1\d) minutes/);
  await expect(card(1)).toContainText('24 h : 2 transactions, 1 en erreur');
  // The exact time as text, in the installation's zone: in the card's name too (screen readers).
  await expect(card(1).locator('time')).toHaveText(/^le \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} \(UTC[+-]\d+\)$/);
  await expect(card(1)).toHaveAccessibleName(/Dernier échange il y a .+, le \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
  await expect(card(2)).toContainText('Silencieux depuis 3 jours');
  await expect(card(2)).toContainText('Dernier échange il y a 3 jours');
  await expect(card(2)).toContainText('24 h : 0 transaction, 0 en erreur');
  await expect(card(3)).toContainText('Jamais vu');
  await expect(card(3)).not.toContainText('Dernier échange');
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  // The editor of #1: its last transactions (of its tablet and its smartphone), a link to the trace
  // filtered on both ids.
  await card(1).click();
  const recent = page.getByRole('table', {
    name: 'Dernières transactions de 815bf75ff86d94fa et 4127ca92e1ae327b',
  });
  await expect(recent.getByRole('row')).toHaveCount(3);
  await expect(recent.getByRole('row').nth(1)).toContainText('OK');
  await expect(recent.getByRole('row').nth(2)).toContainText('Erreur');
  await shots(page, 'terminals-activity');
  await page.getByRole('link', { name: 'Voir toutes ses transactions dans la trace' }).click();
  await expect(page).toHaveURL(/\/transaction-logs\?terminal=815bf75ff86d94fa&terminal=4127ca92e1ae327b$/);
  await expect(page.getByText('Terminal : 815bf75ff86d94fa ou 4127ca92e1ae327b')).toBeVisible();
});

test('Trace: filtered on a terminal, its transactions alone', async ({ page }) => {
  await signIn(page);
  await page.goto(`/transaction-logs?terminal=${TERMINAL}`);
  await expect(page.getByText(`Terminal : ${TERMINAL}`)).toBeVisible();
  const rows = page.getByRole('table', { name: 'Transactions' }).getByRole('row');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1)).toContainText('7002');
});
