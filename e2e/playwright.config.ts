import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { E2E_BASE_URL, E2E_PORT } from './support/env.ts';

/**
 * Debian's Chromium, never a download: its headless shell (package chromium-headless-shell, the
 * same build without the browser's own interface, what Playwright itself runs headless) when it
 * is installed, else the full browser. The shell takes about 40 % less time for the same tests
 * (docs/decisions.md).
 */
// The shell's own binary: /usr/bin/chromium-headless-shell is a wrapper that does not exec it.
const CHROMIUM = ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium'];
const chromiumPath =
  process.env.CHROMIUM_PATH ?? CHROMIUM.find((path) => existsSync(path)) ?? '/usr/bin/chromium';

// Browser tests run Debian's Chromium against the real, built server on a fresh embedded database.
export default defineConfig({
  // E2E_TEST_DIR: run-in-reverse-order.mjs points it at a reversed copy of ./tests.
  testDir: process.env.E2E_TEST_DIR ?? './tests',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // 60 s: a test that is fine in 10 s on a quiet machine needs over 30 s at a load of 15 on 2 cores.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  reporter: [['list'], ['json', { outputFile: '../reports/playwright.json' }]],
  outputDir: '../test-results',
  use: {
    baseURL: E2E_BASE_URL,
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    // A failed test keeps its trace (DOM snapshots, network, console) and one screenshot; the
    // trace's own screenshots (a screencast of every test) would double the browser's work.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: `node e2e/support/start-server.mjs`,
    cwd: '..',
    url: `${E2E_BASE_URL}/auth`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    env: { E2E_PORT: String(E2E_PORT) },
  },
});
