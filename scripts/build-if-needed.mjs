// Shared by start.mjs and admin.mjs: rebuild a dist output when it is missing or older than
// any of its sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

export function isStale(output, sources) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sources.some((s) => newestMtime(s) > built);
}

export function run(label, cmd, args) {
  // Build output goes to stderr: the admin command's stdout carries only its JSON lines.
  console.error(`> ${label}`);
  const res = spawnSync(cmd, args, { stdio: ['inherit', 2, 2] });
  return res.status === 0;
}

const SERVER_SOURCES = [
  'apps/server/src',
  'apps/server/build.mjs',
  'scripts/node-bundle.mjs',
  'packages/contracts/src',
  'packages/config-xml/src',
];

/** Builds the server bundle when needed; false when the build failed. */
export function buildServerIfNeeded() {
  if (!isStale('apps/server/dist/main.js', SERVER_SOURCES)) return true;
  return run('Construction du serveur', process.execPath, ['apps/server/build.mjs']);
}

const WEB_SOURCES = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'apps/web/public',
  'packages/contracts/src',
];

/** Builds the SPA when needed; false when the build failed. */
export function buildWebIfNeeded() {
  if (!isStale('apps/web/dist/index.html', WEB_SOURCES)) return true;
  return run("Construction de l'interface web", 'npm', ['run', 'build', '-w', '@synchro/web']);
}

const SIMULATOR_SOURCES = [
  'tools/automate-sim/src',
  'tools/automate-sim/build.mjs',
  'scripts/node-bundle.mjs',
  'packages/contracts/src',
  'packages/config-xml/src',
];

/** Builds the automate simulator's bundle (started by the server for the demo); false when it failed. */
export function buildSimulatorIfNeeded() {
  if (!isStale('tools/automate-sim/dist/cli.js', SIMULATOR_SOURCES)) return true;
  return run("Construction du simulateur d'automate", process.execPath, ['tools/automate-sim/build.mjs']);
}
