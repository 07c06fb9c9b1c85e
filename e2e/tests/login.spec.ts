import { expect, test } from '@playwright/test';
import { E2E_CLIENT_ID, E2E_SYNC_ID } from '../support/env.ts';
import { signIn } from '../support/session.ts';

test('the login screen shows its title, version and prompt', async ({ page }) => {
  await page.goto('/auth');
  await expect(page.getByRole('heading', { name: 'Synchro' })).toBeVisible();
  await expect(page.getByRole('main').getByText('Version 6.19.4')).toBeVisible();
  await expect(page.getByText('Veuillez entrer vos identifiants de connexion')).toBeVisible();
  await expect(page.getByPlaceholder('Entrez votre ID synchro')).toBeVisible();
  await expect(page.getByPlaceholder('Entrez votre ID Client')).toHaveAttribute('type', 'password');
});

test('the sync id is upper-cased and stripped of other characters as it is typed', async ({ page }) => {
  await page.goto('/auth');
  const field = page.getByLabel('ID de synchronisation');
  await field.pressSequentially('e2e-de mo_1');
  await expect(field).toHaveValue('E2EDEMO1');
});

test('query parameters prefill both fields', async ({ page }) => {
  await page.goto(`/auth?syncId=${E2E_SYNC_ID}&clientId=${E2E_CLIENT_ID}`);
  await expect(page.getByLabel('ID de synchronisation')).toHaveValue(E2E_SYNC_ID);
  await expect(page.getByLabel('ID Client')).toHaveValue(E2E_CLIENT_ID);
});

test('a wrong client id shows the server message in an error toast and stays on /auth', async ({ page }) => {
  await page.goto('/auth');
  await page.getByLabel('ID de synchronisation').fill(E2E_SYNC_ID);
  await page.getByLabel('ID Client').fill('not-the-secret');
  await page.getByRole('button', { name: 'Se connecter' }).click();
  const toast = page.getByRole('status').filter({ hasText: 'Erreur de connexion' }).first();
  await expect(toast).toBeVisible();
  await expect(toast).toContainText('Identifiants incorrects');
  await expect(page).toHaveURL(/\/auth/);
});

test('a correct sign-in opens the dashboard, and logout returns to /auth', async ({ page }) => {
  await signIn(page);
  await expect(page.getByText('Synchro pour EBP GesCom Open Line')).toBeVisible();
  await page.getByRole('button', { name: /Déconnexion|Se déconnecter/ }).click();
  await expect(page).toHaveURL(/\/auth/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth/);
});
