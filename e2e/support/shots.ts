import { join } from 'node:path';
import type { Page } from '@playwright/test';

/**
 * With SCREENSHOTS=1: the page at 1280 and 375 px wide into docs/screenshots/<name>-<width>.png.
 * `arrange`: run after each resize, before the picture (scroll to the part shown, hover…).
 */
export async function shots(page: Page, name: string, arrange?: () => Promise<void>): Promise<void> {
  if (!process.env.SCREENSHOTS) return;
  const size = page.viewportSize();
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.waitForTimeout(300);
    if (arrange) await arrange();
    await page.screenshot({
      path: join(import.meta.dirname, '../../docs/screenshots', `${name}-${width}.png`),
    });
  }
  if (size) await page.setViewportSize(size);
}
