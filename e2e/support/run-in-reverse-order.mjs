// Runs the browser tests with the spec files in reverse order, to show that no spec depends on the
// ones before it (each resets what it edits: support/sections.ts). The specs are copied, renamed
// 01-…, 02-… in reverse order, to a folder beside tests/ (their `../support` imports still hold),
// which is removed afterwards. Usage (after `npm run build`):
//   E2E_PORT=5401 node e2e/support/run-in-reverse-order.mjs [playwright options, e.g. --output DIR]
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const e2e = path.resolve(import.meta.dirname, '..');
const reversed = path.join(e2e, 'tests-reverse-order');
const specs = readdirSync(path.join(e2e, 'tests'))
  .filter((name) => name.endsWith('.spec.ts'))
  .sort()
  .reverse();

rmSync(reversed, { recursive: true, force: true });
mkdirSync(reversed);
specs.forEach((name, i) =>
  copyFileSync(
    path.join(e2e, 'tests', name),
    path.join(reversed, `${String(i + 1).padStart(2, '0')}-${name}`),
  ),
);
console.log(`Ordre d'exécution : ${specs.join(', ')}`);
try {
  const run = spawnSync(
    'npx',
    ['playwright', 'test', '-c', path.join(e2e, 'playwright.config.ts'), ...process.argv.slice(2)],
    {
      stdio: 'inherit',
      env: { ...process.env, E2E_TEST_DIR: './tests-reverse-order' },
    },
  );
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(reversed, { recursive: true, force: true });
}
