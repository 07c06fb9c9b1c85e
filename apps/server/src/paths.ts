import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// This file sits directly in src/, and the bundle directly in dist/: both are one level below
// apps/server, so the same expression finds the server folder in both.
export const SERVER_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const MIGRATIONS_DIR = resolve(SERVER_ROOT, 'src/db/migrations');
export const DEMO_CONFIG_FILE = resolve(SERVER_ROOT, 'demo/connexion-ebp-gescom.xml');
export const WEB_DIST_DIR = resolve(SERVER_ROOT, '../web/dist');
/** The automate simulator's bundle (tools/automate-sim/build.mjs), run by the demo. */
export const AUTOMATE_SIM_CLI = resolve(SERVER_ROOT, '../../tools/automate-sim/dist/cli.js');
