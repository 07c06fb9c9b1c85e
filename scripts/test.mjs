// `npm test`: every test (unit + API on the embedded database, the database tests again on
// PostgreSQL when one answers, then the browser tests), the static checks (`npm run lint`,
// `npm run typecheck`: each counts as one test, run beside the browser tests), and one closing
// line `N passed, N failed`.
// `node scripts/test.mjs checks|unit|e2e` runs one part.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';

const reports = 'reports';
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const env = { ...process.env, TZ: 'Europe/Paris' };
const totals = { passed: 0, failed: 0, skipped: 0 };
/** Each failed test's file and title, repeated just above the closing line (a CI log may keep only its tail). */
const failures = [];
let exitCode = 0;

function run(label, cmd, args, extraEnv = {}) {
  console.log(`\n=== ${label} ===`);
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...env, ...extraEnv } });
  if (res.status !== 0) exitCode = 1;
  return res.status;
}

/**
 * Starts a command without blocking (what runs beside it goes on); its output goes to `logFile`,
 * or to the terminal without one. Resolves with its exit status.
 */
function start(cmd, args, extraEnv, logFile) {
  const out = logFile ? openSync(logFile, 'w') : null;
  const stdio = out === null ? 'inherit' : ['ignore', out, out];
  const child = spawn(cmd, args, { stdio, env: { ...env, ...extraEnv } });
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      if (out !== null) closeSync(out);
      resolve(code ?? 1);
    }),
  );
}

function addVitest(file) {
  if (!existsSync(file)) return void ((totals.failed += 1), failures.push(`${file}: no report`));
  const r = JSON.parse(readFileSync(file, 'utf8'));
  for (const suite of r.testResults ?? []) {
    const where = suite.name.replace(`${process.cwd()}/`, '');
    if (suite.status === 'failed' && suite.assertionResults.length === 0)
      failures.push(`${where}: ${(suite.message ?? '').split('\n')[0]}`);
    for (const t of suite.assertionResults)
      if (t.status === 'failed') failures.push(`${where} › ${t.fullName ?? t.title}`);
  }
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests + (r.numFailedTestSuites ?? 0);
  totals.skipped += r.numPendingTests + (r.numTodoTests ?? 0);
}

function addPlaywright(file) {
  if (!existsSync(file)) return void ((totals.failed += 1), failures.push(`${file}: no report`));
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const s = report.stats;
  const visit = (suite, titles) => {
    for (const spec of suite.specs ?? [])
      if (!spec.ok) failures.push(`${spec.file} › ${[...titles, spec.title].join(' › ')}`);
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
  };
  for (const suite of report.suites ?? []) visit(suite, []);
  totals.passed += s.expected + (s.flaky ?? 0);
  totals.failed += s.unexpected;
  totals.skipped += s.skipped;
}

function portAnswers(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 1000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

const only = process.argv[2];

// ESLint (layers, import cycles...) and Prettier, then TypeScript: a failure is a failed test.
const CHECKS = [
  ['Lint (ESLint and Prettier)', 'lint'],
  ['Type check (tsc)', 'typecheck'],
];

/** The static checks one after the other, their output in a file each; resolves when both are done. */
async function runChecksInBackground() {
  const results = [];
  for (const [label, script] of CHECKS) {
    const log = `${reports}/${script}.log`;
    results.push({ label, log, status: await start('npm', ['run', script], {}, log) });
  }
  return results;
}

function addChecks(results) {
  for (const { label, log, status } of results) {
    console.log(`\n=== ${label} (run beside the browser tests) ===`);
    console.log(readFileSync(log, 'utf8'));
    if (status === 0) {
      totals.passed += 1;
    } else {
      totals.failed += 1;
      failures.push(label);
      exitCode = 1;
    }
  }
}

if (only === 'checks') {
  for (const [label, script] of CHECKS) {
    if (run(label, 'npm', ['run', script]) === 0) totals.passed += 1;
    else totals.failed += 1;
  }
}

if (!only || only === 'unit') {
  const pgUrl =
    process.env.TEST_DATABASE_URL ??
    ((await portAnswers('127.0.0.1', 5432)) ? 'postgres://postgres@127.0.0.1:5432/test' : '');
  // The PostgreSQL pass runs beside the embedded one (separate databases, ports chosen by the
  // system); each runs its server files one at a time, on a core each. The web tests, which use no
  // database, go with the PostgreSQL pass, the shorter one. Its output is kept in a file and
  // shown once both are done, so the two reports do not mix.
  const pgLog = `${reports}/vitest-pg.log`;
  const pgPass = pgUrl
    ? start(
        'npx',
        [
          'vitest',
          'run',
          ...['--project', 'server', '--project', 'web'],
          '--reporter=default',
          '--reporter=json',
          `--outputFile.json=${reports}/vitest-pg.json`,
        ],
        { TEST_DATABASE_URL: pgUrl, FORCE_COLOR: '1' },
        pgLog,
      )
    : null;
  run('Unit and API tests (embedded database)', 'npx', [
    'vitest',
    'run',
    // Every project but the web one when the web tests go with the PostgreSQL pass.
    ...(pgPass ? ['--project', '!web'] : []),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${reports}/vitest.json`,
  ]);
  addVitest(`${reports}/vitest.json`);

  if (pgPass) {
    const status = await pgPass;
    console.log(
      '\n=== Database and API tests on PostgreSQL, and the web tests (run beside the embedded pass) ===',
    );
    console.log(readFileSync(pgLog, 'utf8'));
    if (status !== 0) exitCode = 1;
    addVitest(`${reports}/vitest-pg.json`);
  } else {
    console.log(
      '\nNo PostgreSQL answers on 127.0.0.1:5432 and TEST_DATABASE_URL is unset: PostgreSQL pass skipped.',
    );
  }

  // Every answer and log line of the server tests, checked against every secret they created
  // (apps/server/test/helpers/secret-capture.ts): one test, failed on any finding.
  if (run('Secrets scan', 'node', ['scripts/scan-secrets.mjs', `${reports}/captured`]) === 0)
    totals.passed += 1;
  else {
    totals.failed += 1;
    failures.push('Secrets scan');
  }
}

if (!only || only === 'e2e') {
  const built = run('Build', 'npm', ['run', 'build']) === 0;
  // The browser tests leave part of the machine idle (between a page's work and the server's):
  // the static checks run beside them.
  const checks = only ? null : runChecksInBackground();
  if (built) {
    console.log('\n=== Browser tests (Chromium) ===');
    const status = await start('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: `${reports}/playwright.json`,
    });
    if (status !== 0) exitCode = 1;
    addPlaywright(`${reports}/playwright.json`);
  } else {
    totals.failed += 1;
    failures.push('Build');
  }
  if (checks) addChecks(await checks);
}

if (failures.length > 0) console.log(`\nFailed:\n${failures.map((f) => `- ${f}`).join('\n')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(exitCode || (totals.failed > 0 ? 1 : 0));
