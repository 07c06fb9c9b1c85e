/**
 * A signed-in user's first load of /auth on a slow link: largest contentful paint and bytes moved.
 *
 *   npm run build
 *   npx tsx bench/delivery/lcp.ts [--runs 7] [--label "current build"] [--port 5461] [--no-readme]
 *     [--visitor] [--identity] [--waterfall] [--screen /import-history]
 *
 * Builds nothing: the built server (`apps/server/dist/main.js`, serving `apps/web/dist`) runs on the
 * embedded database in a temporary DATA_DIR with an installation made from the demo configuration.
 * Debian's Chromium (/usr/bin/chromium, CHROMIUM_PATH otherwise) signs in once through the login
 * form, then each run is a new browser context (empty cache) holding the session cookie, on a link
 * emulated through CDP `Network.emulateNetworkConditions` (150 ms latency, 1.6 Mbit/s down,
 * 750 kbit/s up), that opens /auth: the session sends it to Général. LCP is the last
 * `largest-contentful-paint` entry once Général shows its values and the network is idle; bytes are
 * the sum of CDP's `encodedDataLength` (headers and bodies as they travelled). The table row of
 * `--label` in bench/README.md is replaced, the other rows are kept (before/after figures).
 */
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { describeMachine } from '../config-xml/machine.ts';
import {
  createInstallation,
  median,
  prepareTarget,
  readmeSection,
  startServer,
  stopServer,
  writeReadmeSection,
} from '../support/server.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    label: { type: 'string', default: 'current build' },
    port: { type: 'string', default: '5461' },
    'no-readme': { type: 'boolean', default: false },
    /** A visitor instead (no session): LCP of the login screen. Label it so (« visitor: … »). */
    visitor: { type: 'boolean', default: false },
    /**
     * Opens this screen's path instead of /auth (a bookmark of a screen), its title the end of the
     * wait. Its rows sit beside Général's; label them with the path.
     */
    screen: { type: 'string' },
    /** Sends `Accept-Encoding: identity` (CDP): the answers travel uncompressed, as before issue 9. */
    identity: { type: 'boolean', default: false },
    /** Prints each request of the last run: start and end (ms after the first), bytes. */
    waterfall: { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
const SYNC_ID = 'BENCHLCP';
const CLIENT_ID = 'bench-lcp-client-secret';
/** Chromium's network emulation: bytes per second. */
const LINK = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 };
const GOAL_MS = 2500;
const SECTION = 'bench/delivery';

interface Transfer {
  url: string;
  bytes: number;
  encoding: string;
  startMs: number;
  endMs: number;
}

interface Run {
  lcpMs: number;
  lcpElement: string;
  bytes: number;
  transfers: Transfer[];
}

/**
 * Records the newest LCP candidate in window.__lcp; runs before the page's own scripts (a string:
 * this file is type-checked without the DOM's types).
 */
const OBSERVE_LCP = `
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const el = entry.element;
      const text = ((el && el.textContent) || '').trim().slice(0, 40);
      window.__lcp = { time: entry.startTime, element: el ? el.tagName.toLowerCase() + ' « ' + text + ' »' : '?' };
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
`;

async function measureOnce(
  browser: Browser,
  base: string,
  state: Awaited<ReturnType<BrowserContext['storageState']>>,
): Promise<Run> {
  const context = await browser.newContext({
    baseURL: base,
    ...(args.visitor ? {} : { storageState: state }),
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    viewport: { width: 1440, height: 900 },
  });
  try {
    const page = await context.newPage();
    await page.addInitScript(OBSERVE_LCP);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', LINK);
    if (args.identity)
      await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'identity' } });
    const started = new Map<string, number>();
    const responses = new Map<string, { url: string; encoding: string }>();
    const transfers: Transfer[] = [];
    let origin: number | null = null;
    cdp.on('Network.requestWillBeSent', (e) => {
      origin ??= e.timestamp;
      started.set(e.requestId, e.timestamp);
    });
    cdp.on('Network.responseReceived', (e) => {
      const headers = Object.fromEntries(
        Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
      );
      responses.set(e.requestId, { url: e.response.url, encoding: headers['content-encoding'] ?? '' });
    });
    cdp.on('Network.loadingFinished', (e) => {
      const r = responses.get(e.requestId);
      const since = (t: number) => Math.round((t - (origin ?? t)) * 1000);
      if (r)
        transfers.push({
          ...r,
          bytes: e.encodedDataLength,
          startMs: since(started.get(e.requestId) ?? e.timestamp),
          endMs: since(e.timestamp),
        });
    });
    await page.goto(args.screen ?? '/auth');
    if (args.screen) {
      await page.waitForURL((url) => url.pathname === args.screen, { timeout: 60_000 });
      await page.getByRole('heading', { level: 1 }).waitFor({ timeout: 60_000 });
    } else if (args.visitor) {
      await page.getByRole('button', { name: 'Se connecter' }).waitFor({ timeout: 60_000 });
    } else {
      await page.waitForURL((url) => url.pathname === '/', { timeout: 60_000 });
      await page
        .locator('dt')
        .filter({ hasText: /^Terminaux déclarés$/ })
        .waitFor({ timeout: 60_000 });
    }
    await page.waitForLoadState('networkidle', { timeout: 60_000 });
    const lcp = (await page.evaluate('window.__lcp')) as { time: number; element: string } | undefined;
    if (!lcp) throw new Error('no largest-contentful-paint entry');
    return {
      lcpMs: lcp.time,
      lcpElement: lcp.element,
      bytes: transfers.reduce((sum, t) => sum + t.bytes, 0),
      transfers,
    };
  } finally {
    await context.close();
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const path = (url: string) => new URL(url).pathname;

function section(runs: Run[], machine: string): string {
  const lcps = runs.map((r) => r.lcpMs);
  const lcp = median(lcps);
  const bytes = median(runs.map((r) => r.bytes));
  const last = runs[runs.length - 1];
  const biggest = [...(last?.transfers ?? [])].sort((a, b) => b.bytes - a.bytes).slice(0, 6);
  const row =
    `| ${args.label} | ${new Date().toISOString().slice(0, 16).replace('T', ' ')} | ${(lcp / 1000).toFixed(2)} s | ` +
    `${(Math.min(...lcps) / 1000).toFixed(2)}–${(Math.max(...lcps) / 1000).toFixed(2)} s | ${kb(bytes)} | ` +
    `${last?.transfers.length ?? 0} | ${(os.loadavg()[0] ?? 0).toFixed(1)} | ` +
    `${biggest.map((t) => `${path(t.url)} ${kb(t.bytes)}${t.encoding ? ` ${t.encoding}` : ''}`).join(', ')} |`;
  const header =
    '| build | date (UTC) | LCP median | LCP min–max | bytes moved | requests | load avg | largest transfers |';
  const previous = readmeSection(SECTION).split('\n');
  const kept = previous.filter(
    (l) => l.startsWith('| ') && !l.startsWith('| build |') && !l.startsWith(`| ${args.label} |`),
  );
  // The other kind of run keeps its own summary line.
  const SIGNED_IN = 'Last run: ';
  const VISITOR = 'Last run (a visitor';
  const other = previous.find((l) => l.startsWith(args.visitor ? SIGNED_IN : VISITOR));
  const summary = args.visitor
    ? `${VISITOR}, no session: the login screen): ${machine}, ${RUNS} runs, LCP element « ${last?.lcpElement ?? '?'} ».`
    : `${SIGNED_IN}${machine}, ${RUNS} runs, LCP element « ${last?.lcpElement ?? '?'} ». Goal: LCP ≤ ${GOAL_MS / 1000} s → ` +
      `${lcp <= GOAL_MS ? 'met' : 'NOT met'} (${(lcp / 1000).toFixed(2)} s).`;
  const mine = previous.find((l) => l.startsWith(args.visitor ? VISITOR : SIGNED_IN));
  // A screen's runs keep both summary lines as they were (the goal is Général's).
  const summaries = args.screen ? [mine, other] : args.visitor ? [other, summary] : [summary, other];
  return [
    '## Delivery: first load of /auth on a slow link',
    '',
    'Run `npm run build && npx tsx bench/delivery/lcp.ts [--runs 7] [--label NAME]`: the built server on the ' +
      'embedded database (temporary folder, an installation made from the demo configuration), Debian Chromium ' +
      'through Playwright, a signed-in session opening /auth in a new context (empty cache) on a link emulated ' +
      'with CDP `Network.emulateNetworkConditions` (latency 150 ms, 1.6 Mbit/s down, 750 kbit/s up, 1440×900). ' +
      'LCP: the last `largest-contentful-paint` entry once Général shows its values and the network is idle; ' +
      "bytes: CDP's `encodedDataLength` summed (headers included). Medians of the runs; each label keeps its row. " +
      'Rows labelled « visitor » (`--visitor`): no session, LCP of the login screen. Rows labelled with a path ' +
      '(`--screen PATH`): a signed-in session opening that screen directly, its title the end of the wait. ' +
      'The 2 cores are shared: ' +
      'script parsing and rendering slow down with the load average, so compare rows at similar loads.',
    '',
    ...summaries.filter((l): l is string => l !== undefined).flatMap((l) => [l, '']),
    header,
    '|---|---|---:|---:|---:|---:|---:|---|',
    ...kept,
    row,
    '',
  ].join('\n');
}

const machine = describeMachine();
const target = await prepareTarget('embedded', 'lcp');
let browser: Browser | null = null;
try {
  createInstallation(target, SYNC_ID, CLIENT_ID);
  const server = await startServer(target, Number(args.port));
  try {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
    });
    // Signs in once through the login form, as the browser tests do; each run reuses the cookie.
    const first = await browser.newContext({ baseURL: server.base, locale: 'fr-FR' });
    const login = await first.newPage();
    await login.goto('/auth');
    await login.getByLabel('ID de synchronisation').fill(SYNC_ID);
    await login.getByLabel('ID Client').fill(CLIENT_ID);
    await login.getByRole('button', { name: 'Se connecter' }).click();
    await login.waitForURL((url) => url.pathname === '/');
    const state = await first.storageState();
    await first.close();

    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      const run = await measureOnce(browser, server.base, state);
      runs.push(run);
      process.stdout.write(
        `run ${i + 1}: LCP ${(run.lcpMs / 1000).toFixed(2)} s (${run.lcpElement}), ${kb(run.bytes)} in ${run.transfers.length} requests\n`,
      );
    }
    if (args.waterfall)
      for (const t of [...(runs.at(-1)?.transfers ?? [])].sort((a, b) => a.startMs - b.startMs))
        process.stdout.write(`${t.startMs}\t${t.endMs}\t${t.bytes}\t${t.encoding}\t${path(t.url)}\n`);
    const text = section(runs, machine);
    process.stdout.write(`\n${text}`);
    if (!args['no-readme']) writeReadmeSection(SECTION, text);
  } finally {
    await browser?.close();
    await stopServer(server);
  }
} finally {
  await target.cleanup();
}
