import { expect, type Page } from '@playwright/test';

/**
 * With unsaved edits on the screen at `path`, leaving through the menu asks first; 'Annuler' stays
 * on the screen with the edits.
 */
export async function expectLeaveGuard(page: Page, path: string): Promise<void> {
  await expect(page.getByText('Modifications non enregistrées')).toBeVisible();
  // A navigation within 200 ms of the previous one is ignored: let the debounce pass.
  await page.waitForTimeout(250);
  await page
    .getByRole('navigation', { name: 'Écrans de la console' })
    .getByRole('link', { name: 'Général' })
    .click();
  const dialog = page.getByRole('alertdialog', { name: 'Modifications non sauvegardées' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Annuler' }).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
}
