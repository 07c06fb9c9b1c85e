import { expect, test } from '@playwright/test';
import { signIn } from '../support/session.ts';

test('a visitor who is not signed in is sent to /auth', async ({ page }) => {
  await page.goto('/terminals');
  await expect(page).toHaveURL(/\/auth$/);
});

test.describe('signed in', () => {
  test.beforeEach(async ({ page }) => signIn(page));

  test('/auth sends a signed-in user to /', async ({ page }) => {
    await page.goto('/auth');
    await expect(page).toHaveURL(/\/$/);
  });

  for (const path of ['/exclusions', '/exclusions/simple']) {
    test(`${path} redirects to /exclusions/family`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/exclusions\/family$/);
      const entry = page.getByRole('link', { name: 'Exclusions de la synchro' });
      await expect(entry).toHaveAttribute('aria-current', 'page');
    });
  }

  test('an unknown path shows the 404 card', async ({ page }) => {
    await page.goto('/nowhere/at/all');
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
    await expect(page.getByText(/ajouter la page au routeur/)).toBeVisible();
  });

  test('the side menu has the 11 entries of the spec in order, then the two history screens, and marks the active one', async ({
    page,
  }) => {
    const nav = page.getByRole('navigation', { name: 'Écrans de la console' });
    const names = [
      'Général',
      'Base de données source',
      'Liaisons externes',
      'Agendas externes',
      'Données à synchroniser',
      'Exclusions de la synchro',
      'Complément',
      'Planification',
      'Terminaux',
      "Historique d'importation",
      'Trace des transactions',
      'Historique de la configuration',
      "Journal d'audit",
    ];
    await expect(nav.getByRole('link')).toHaveText(names);
    await nav.getByRole('link', { name: 'Terminaux' }).click();
    await expect(page).toHaveURL(/\/terminals$/);
    await expect(nav.getByRole('link', { name: 'Terminaux' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Général' })).not.toHaveAttribute('aria-current', 'page');
  });

  test('every entry of the side menu reads whole at 1280 px: none is cut with an ellipsis', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const labels = page.getByRole('navigation', { name: 'Écrans de la console' }).locator('a > span');
    await expect(labels).toHaveCount(13);
    const cut = await labels.evaluateAll((spans) =>
      spans.filter((s) => s.scrollWidth > s.clientWidth).map((s) => s.textContent),
    );
    expect(cut).toEqual([]);
  });

  test('the menu entry of the screen shown is not a navigation: a click on another entry right after it goes through', async ({
    page,
  }) => {
    const nav = page.getByRole('navigation', { name: 'Écrans de la console' });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Général');
    // Both clicks in one task, well within the 200 ms navigation debounce.
    await nav.evaluate((menu) => {
      const entry = (name: string) =>
        Array.from(menu.querySelectorAll('a')).find((a) => a.textContent?.trim() === name);
      entry('Général')?.click();
      entry('Base de données source')?.click();
    });
    await expect(page).toHaveURL(/\/database$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Base de données source');
  });

  test('Ctrl+B collapses the sidebar to icons, and the cookie keeps it collapsed after a reload', async ({
    page,
    context,
  }) => {
    const sidebar = page.getByRole('complementary', { name: 'Menu principal' });
    const width = async () => (await sidebar.boundingBox())?.width ?? 0;
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
    await expect.poll(width).toBe(256);
    await page.keyboard.press('Control+b');
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    await expect.poll(width).toBe(48);
    await expect(page.getByRole('button', { name: 'Afficher le menu' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    const cookie = (await context.cookies()).find((c) => c.name === 'sidebar_state');
    expect(cookie?.value).toBe('false');
    expect(Math.round((cookie?.expires ?? 0) - Date.now() / 1000)).toBeGreaterThan(604_000);
    await page.reload();
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    await page.keyboard.press('Control+b');
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
    await expect.poll(width).toBe(256);
  });
});
