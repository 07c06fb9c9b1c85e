import { expect, test } from '@playwright/test';
import { signIn } from '../support/session.ts';

test.use({ viewport: { width: 390, height: 844 } });

test('under 768 px the menu is an off-canvas sheet that opens, navigates and closes', async ({ page }) => {
  await signIn(page);
  const nav = page.getByRole('navigation', { name: 'Écrans de la console' });
  await expect(nav).toBeHidden();
  await page.getByRole('button', { name: 'Afficher le menu' }).click();
  const sheet = page.getByRole('dialog');
  await expect(sheet).toBeVisible();
  await expect.poll(async () => (await sheet.boundingBox())?.width).toBe(288);
  await sheet.getByRole('link', { name: 'Planification' }).click();
  await expect(page).toHaveURL(/\/planning$/);
  await expect(sheet).toBeHidden();
  await page.keyboard.press('Control+b');
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
});
