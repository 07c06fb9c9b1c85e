import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Chooses `option` in a select (Radix Select) by pointer, as a user does, and checks that the
 * choice took. The list opens so that the chosen item lines up with the trigger and can still move
 * when the click lands: once in a few runs on a loaded machine the list stayed open on the old
 * value, and the next control, hidden behind the open list, was never found. The choice is then
 * made again (the list closed first with Escape).
 */
export async function pickOption(page: Page, trigger: Locator, option: string): Promise<void> {
  await expect(async () => {
    if (await page.getByRole('listbox').isVisible()) await page.keyboard.press('Escape');
    await trigger.click({ timeout: 5_000 });
    await page.getByRole('option', { name: option, exact: true }).click({ timeout: 5_000 });
    await expect(page.getByRole('listbox')).toHaveCount(0, { timeout: 2_000 });
    await expect(trigger).toContainText(option, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}
