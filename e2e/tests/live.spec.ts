import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { restoreConnectorPartsAfterAll } from '../support/connector.ts';
import { E2E_BASE_URL, E2E_PORT } from '../support/env.ts';
import { connectorToken, devisXml, postRecords, record } from '../support/history-data.ts';
import { signIn } from '../support/session.ts';
import { shots } from '../support/shots.ts';

// Live events (docs/live.md): what the connector API receives while a page is open shows up
// without a reload; the server lost, a banner that goes away by itself.

function field(page: Page, label: string) {
  return page
    .locator('dt')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd[1]');
}

/** Whether two elements' boxes on screen share any point (once their animations are over). */
async function overlapOnScreen(a: Locator, b: Locator): Promise<boolean> {
  await a.evaluate((el) => Promise.all(el.getAnimations().map((x) => x.finished)));
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) throw new Error('élément hors de la page');
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

async function patchConnector(body: unknown): Promise<void> {
  const res = await fetch(`${E2E_BASE_URL}/api/connector/v1/configuration`, {
    method: 'PATCH',
    headers: { Authorization: `Bearer ${connectorToken(E2E_PORT)}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`PATCH configuration : ${res.status} ${await res.text()}`);
}

const RUN = `LIVE${Date.now().toString(36).toUpperCase()}`;

test.describe('Live', () => {
  restoreConnectorPartsAfterAll();
  test.beforeEach(async ({ page }) => signIn(page));

  test('Général: a last sync sent by the connector while the page is open shows up in place', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(field(page, "Nombre d'enregistrements")).toHaveText('1\u202f838');
    // Let the page open its stream.
    await page.waitForTimeout(1000);
    await patchConnector({
      DerSynchro: {
        TypeDeSync: 'ComplÃ¨te',
        DateHeure: '20250309080952542',
        Duree: '00:01:02',
        NbEnreg: '4242',
        Vitesse: '5927',
        Taille: '3,721 Mo',
        DureeAlerte: '0',
        TailleAlerte: '0',
      },
    });
    await expect(field(page, "Nombre d'enregistrements")).toHaveText('4\u202f242');
    await expect(field(page, 'Durée totale')).toHaveText('00:01:02');
  });

  test('import history: new records announced « N nouveaux enregistrements — Afficher », rows unmoved until asked', async ({
    page,
  }) => {
    const refs = [0, 1, 2, 3].map((n) => `${RUN}-R${n}`);
    const seed = (from: number, to: number) =>
      postRecords(
        E2E_BASE_URL,
        connectorToken(E2E_PORT),
        refs.slice(from, to).map((ref, i) =>
          record({
            IDInterne: `${ref}-ID`,
            TypeEnreg: 'DocumentDEVIS',
            RefDoc: ref,
            DateHeure: `2030-01-0${from + i + 1}T10:00:00`,
            Etat: 1,
            Enreg: devisXml(ref, 'Live & Fils'),
          }),
        ),
      );
    await seed(0, 1);
    await page.goto('/import-history');
    await expect(page.getByRole('heading', { name: "Historique d'importation", level: 1 })).toBeVisible();
    await expect(page.getByText(refs[0]!).first()).toBeVisible();
    await page.waitForTimeout(1000);
    const firstRow = await page.getByRole('row').nth(1).textContent();
    await seed(1, 4);
    const notice = page.getByRole('status').filter({ hasText: '3 nouveaux enregistrements —' });
    await expect(notice).toBeVisible();
    await shots(page, 'live-new-records');
    // What was read stays where it was.
    expect(await page.getByRole('row').nth(1).textContent()).toBe(firstRow);
    await expect(page.getByText(refs[3]!)).toHaveCount(0);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await notice.getByRole('button', { name: 'Afficher' }).click();
    await expect(page.getByText(refs[3]!).first()).toBeVisible();
    await expect(notice).toHaveCount(0);
  });

  test('server unreachable during a session: a banner, then gone by itself; what is typed stays', async ({
    page,
  }) => {
    await page.goto('/complement');
    const script = page.getByRole('textbox', { name: /Script complémentaire/ });
    await expect(script).toBeVisible();
    await script.fill('echo « gardé »');
    await page.route('**/api/**', (route) =>
      route.fulfill({ status: 503, body: '{"message":"Indisponible"}' }),
    );
    // The save meets the lost server, on a phone: its error toast leaves the button in reach.
    await page.setViewportSize({ width: 375, height: 812 });
    const save = page.getByRole('button', { name: 'Valider' });
    await save.click();
    const banner = page
      .getByRole('status')
      .filter({ hasText: 'Connexion au serveur perdue — nouvelle tentative…' });
    await expect(banner).toBeVisible();
    const failed = page.locator('li').filter({ hasText: 'Erreur de sauvegarde' });
    await expect(failed).toBeVisible();
    expect(await overlapOnScreen(failed, save)).toBe(false);
    await page.setViewportSize({ width: 1280, height: 720 });
    expect(await overlapOnScreen(failed, save)).toBe(false);
    await shots(page, 'live-connection-lost');
    await page.unroute('**/api/**');
    await expect(banner).toHaveCount(0, { timeout: 10_000 });
    await expect(script).toHaveValue('echo « gardé »');
  });

  test('at start, a server answering 5xx: « Failed to fetch user data » with « Réessayer », not the login screen', async ({
    page,
  }) => {
    await page.route('**/api/user', (route) => route.fulfill({ status: 502, body: 'Bad Gateway' }));
    await page.goto('/');
    const alert = page.getByRole('alert').filter({ hasText: 'Failed to fetch user data' });
    await expect(alert).toBeVisible();
    await expect(page.getByText('Veuillez entrer vos identifiants de connexion')).toHaveCount(0);
    await shots(page, 'user-fetch-failed');
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await page.unroute('**/api/user');
    await alert.getByRole('button', { name: /Réessayer/ }).click();
    await expect(page.getByRole('heading', { name: 'Général', level: 1 })).toBeVisible();
  });
});
