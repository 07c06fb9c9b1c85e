import { expect, type Page } from '@playwright/test';
import { E2E_CLIENT_ID, E2E_SYNC_ID } from './env.ts';

/** Signs in through the real login form (the e2e installation by default) and waits for the dashboard. */
export async function signIn(page: Page, syncId = E2E_SYNC_ID, clientId = E2E_CLIENT_ID): Promise<void> {
  await page.goto('/auth');
  await page.getByLabel('ID de synchronisation').fill(syncId);
  await page.getByLabel('ID Client').fill(clientId);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/$/);
}
