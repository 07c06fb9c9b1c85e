import { expect, type Page } from '@playwright/test';
import { E2E_CLIENT_ID, E2E_SYNC_ID } from './env.ts';

/** Signs in through the real login form and waits for the dashboard. */
export async function signIn(page: Page): Promise<void> {
  await page.goto('/auth');
  await page.getByLabel('ID de synchronisation').fill(E2E_SYNC_ID);
  await page.getByLabel('ID Client').fill(E2E_CLIENT_ID);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/$/);
}
