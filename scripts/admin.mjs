// `npm run admin -- <commande> ...`: the admin command (apps/server/src/admin), same environment
// as the server (DATA_DIR / DATABASE_URL).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServerIfNeeded } from './build-if-needed.mjs';

const typedFrom = process.env.INIT_CWD ?? process.cwd();
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
if (!buildServerIfNeeded()) {
  console.error('La construction du serveur a échoué.');
  process.exit(1);
}
// Run from the project root like the server, so that the default DATA_DIR (./data) is the same;
// a relative --config is read from where the command was typed (INIT_CWD, set by npm).
const res = spawnSync(process.execPath, ['apps/server/dist/cli.js', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, INIT_CWD: typedFrom },
});
process.exit(res.status ?? 1);
