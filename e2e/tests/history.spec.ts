import { expect, test } from '@playwright/test';
import { signIn } from '../support/session.ts';

// The unsaved-changes guard listens to Back/Forward (popstate). The dirty case is covered by the
// unit tests on jsdom's History API (apps/web/src/state/unsaved-changes/history-guard.test.tsx);
// here, in a real browser, the guard must let every clean traversal through, in both directions,
// and leave fragments alone.

test('with nothing unsaved, Back and Forward move between screens without a dialog', async ({ page }) => {
  await signIn(page);
  const nav = page.getByRole('navigation', { name: 'Écrans de la console' });
  const heading = page.getByRole('heading', { level: 1 });
  await nav.getByRole('link', { name: 'Terminaux' }).click();
  await expect(heading).toHaveText('Terminaux');
  await nav.getByRole('link', { name: 'Planification' }).click();
  await expect(heading).toHaveText('Planification des synchronisations');

  await page.goBack();
  await expect(page).toHaveURL(/\/terminals$/);
  await expect(heading).toHaveText('Terminaux');
  await expect(nav.getByRole('link', { name: 'Terminaux' })).toHaveAttribute('aria-current', 'page');
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await expect(heading).toHaveText('Général');
  await page.goForward();
  await expect(page).toHaveURL(/\/terminals$/);
  await expect(heading).toHaveText('Terminaux');
  await page.goForward();
  await expect(page).toHaveURL(/\/planning$/);
  await expect(heading).toHaveText('Planification des synchronisations');
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
});

test('the skip link adds a fragment entry; Back from it stays on the screen', async ({ page }) => {
  await signIn(page);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Général');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Aller au contenu principal' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/#contenu-principal$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Général');
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
});
