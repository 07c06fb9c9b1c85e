import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';

/** The connector API's reference (issue 19): rendered from the server's own OpenAPI document, no CDN. */
test('/docs/connector renders the connector API from its OpenAPI document, with nothing from elsewhere', async ({
  page,
}) => {
  const outside: string[] = [];
  page.on('request', (request) => {
    if (
      !request.url().startsWith(new URL(page.url() || 'http://127.0.0.1').origin) &&
      !request.url().startsWith('data:')
    )
      outside.push(request.url());
  });
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto('/docs/connector');
  await expect(page.getByText('Console Synchro — API connecteur')).toBeVisible();
  await expect(page.getByText('/api/connector/v1/import-records', { exact: true })).toBeVisible();
  await expect(page.getByText('Envoyer des enregistrements à importer')).toBeVisible();
  await expect(page.getByText('/api/connector/v1/drive/access-token', { exact: true })).toBeVisible();
  expect(errors).toEqual([]);
  expect(
    outside.filter((u) => !u.includes('/docs/connector') && !u.includes('/api/connector/v1/openapi.json')),
  ).toEqual([]);
});

test('/docs/connector has no axe violations, an operation open', async ({ page }) => {
  await page.goto('/docs/connector');
  await page.getByText('Envoyer des enregistrements à importer').click();
  await expect(page.getByText('All or nothing; idempotent on').first()).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 4)
          .join(' | ')}`,
    ),
  ).toEqual([]);
});
