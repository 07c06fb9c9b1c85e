import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { E2E_BASE_URL, E2E_PORT } from '../support/env.ts';
import { connectorToken, postTransactions, type TransactionInput } from '../support/history-data.ts';
import { signIn } from '../support/session.ts';

// Trace des transactions against the real server, on transactions sent through the connector
// API. This run's transactions share a terminal id of their own: the tests search for it.
const RUN = `t${Date.now().toString(36)}`;
const TERMINAL = `e2e-${RUN}`;
const LONG_LOG = Array.from({ length: 30 }, (_, i) => `Étape ${i + 1} : ligne ${i + 1} du devis`).join('\n');

function transactions(): TransactionInput[] {
  return Array.from({ length: 30 }, (_, i) => {
    const n = i + 1;
    return {
      ID: `${RUN}-${n}`,
      Err: n % 10 === 3 ? 1 : 0,
      // 5 March 2024 for the first 20, the 4th for the others (Paris wall clock).
      DateHeureTrt: `2024-03-0${n <= 20 ? 5 : 4}T10:${String(59 - n).padStart(2, '0')}:07`,
      NumTransaction: String(9000 + n),
      TypeDoc: n % 2 ? 'DEVIS' : 'INTERVENTION',
      RefDoc: `XX_${RUN}_${n}`,
      IDTablette: TERMINAL,
      LibelleTablette: 'Tablette Sébastien',
      Log:
        n === 1
          ? LONG_LOG
          : n === 3
            ? 'Début de la transaction\nErreur : client inconnu\nTransaction annulée'
            : `Début de la transaction\nDocument ${n} importé`,
    };
  });
}

test.beforeAll(async () => {
  await postTransactions(E2E_BASE_URL, connectorToken(E2E_PORT), transactions());
});

async function openSearched(page: Page, term = TERMINAL) {
  await signIn(page);
  await page.goto('/transaction-logs');
  await expect(page.getByRole('heading', { name: 'Trace des transactions', level: 1 })).toBeVisible();
  const box = page.getByRole('searchbox', { name: 'Rechercher' });
  await box.fill(term);
  await box.press('Enter');
}

const rowOf = (page: Page, num: number) =>
  page.getByRole('row').filter({ has: page.getByRole('cell', { name: String(9000 + num), exact: true }) });

async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
}

test.describe('Trace des transactions', () => {
  test('lists the transactions with the log’s first two lines, the footer and paging', async ({ page }) => {
    await openSearched(page);
    await expect(page.getByRole('note', { name: 'Fuseau horaire' })).toContainText('Europe/Paris');
    await expect(page.getByText('Affichage de 25 sur 30 enregistrements')).toBeVisible();
    await expect(rowOf(page, 1).getByRole('cell')).toHaveText([
      'OK',
      '05/03/2024 10:58:07',
      '9001',
      'DEVIS',
      TERMINAL,
      'Tablette Sébastien',
      'Étape 1 : ligne 1 du devisÉtape 2 : ligne 2 du devis…',
      'Voir plus',
    ]);
    await expect(rowOf(page, 3).getByRole('cell').first()).toHaveText('Erreur');
    await expect(rowOf(page, 2).getByRole('cell').nth(6)).toHaveText(
      'Début de la transactionDocument 2 importé',
    );

    await page.getByRole('button', { name: /Suivant/ }).click();
    await expect(page.getByText('Affichage de 5 sur 30 enregistrements')).toBeVisible();
    await expect(page.getByText('Page 2 sur 2')).toBeVisible();
    await page.getByRole('button', { name: /Précédent/ }).click();
    await expect(page.getByText('Page 1 sur 2')).toBeVisible();
  });

  test('filters by day and errors; an empty result says so', async ({ page }) => {
    await openSearched(page);
    const date = page.getByRole('textbox', { name: 'Date' });
    const request = page.waitForRequest((r) => r.url().includes('dateFilter=2024-03-04'));
    await date.fill('04/03/2024');
    await date.press('Enter');
    await request;
    await expect(page.getByText('Affichage de 10 sur 10 enregistrements')).toBeVisible();
    await page.getByRole('checkbox', { name: 'Afficher uniquement les erreurs' }).check();
    await expect(page.getByText('Affichage de 1 sur 1 enregistrements')).toBeVisible();
    await expect(rowOf(page, 23)).toContainText('Erreur');
    await page.getByRole('button', { name: 'Effacer la date' }).click();
    await expect(page.getByText('Affichage de 3 sur 3 enregistrements')).toBeVisible();

    await page.getByRole('searchbox', { name: 'Rechercher' }).fill(`${TERMINAL}-rien`);
    await page.getByRole('searchbox', { name: 'Rechercher' }).press('Enter');
    await expect(
      page.getByText('Aucun log de transaction trouvé pour les critères sélectionnés.'),
    ).toBeVisible();
  });

  test("'Voir plus' shows the whole log with the date, terminal, id and number", async ({ page }) => {
    await openSearched(page);
    await rowOf(page, 1).getByRole('button', { name: 'Voir plus (transaction 9001)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Détail de la transaction' });
    await expect(dialog.getByRole('textbox', { name: 'Contenu du log' })).toHaveValue(LONG_LOG);
    await expect(dialog).toContainText('05/03/2024 10:58:07');
    await expect(dialog).toContainText(`Tablette Sébastien — ${TERMINAL}`);
    await expect(dialog).toContainText(`${RUN}-1`);
    await expect(dialog).toContainText('9001');
    expect(await axeViolations(page)).toEqual([]);
  });

  test('exports the filtered trace as CSV', async ({ page }) => {
    await openSearched(page);
    await page.getByRole('checkbox', { name: 'Afficher uniquement les erreurs' }).check();
    await expect(page.getByText('Affichage de 3 sur 3 enregistrements')).toBeVisible();
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Exporter en CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^trace-transactions-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = readFileSync((await file.path())!);
    expect(bytes.subarray(0, 3).toString('hex')).toBe('efbbbf');
    const lines = bytes.subarray(3).toString('utf8').trim().split('\r\n');
    expect(lines[0]!.startsWith('"État";"Date de transaction";"Décalage UTC";"N° Transaction"')).toBe(true);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain('"Erreur";"05/03/2024 10:56:07";"UTC+01:00";"9003"');
  });

  test('has no axe violations, and shows one card per transaction on a phone', async ({ page }) => {
    await openSearched(page);
    await expect(page.getByText('Affichage de 25 sur 30 enregistrements')).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    const cards = page.getByRole('list', { name: 'Transactions' });
    await expect(cards.getByRole('listitem')).toHaveCount(25);
    await expect(cards.getByRole('listitem').first()).toContainText('05/03/2024 10:58:07');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
  });
});
