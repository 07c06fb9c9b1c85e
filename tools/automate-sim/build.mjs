// Bundles the simulator's command into dist/cli.js (scripts/node-bundle.mjs).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForNode } from '../../scripts/node-bundle.mjs';

const root = dirname(fileURLToPath(import.meta.url));

/** Builds dist/cli.js, or `outdir`/cli.js when given (tests). */
export async function buildSim(outdir = join(root, 'dist')) {
  await bundleForNode({ cli: join(root, 'src/cli.ts') }, outdir);
  return join(outdir, 'cli.js');
}

// `node build.mjs [--outdir DIR]`
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--outdir');
  const cli = await buildSim(at === -1 ? undefined : process.argv[at + 1]);
  console.log(`simulator built: ${cli}`);
}
