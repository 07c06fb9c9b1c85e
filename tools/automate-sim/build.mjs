// Bundles the simulator's command into dist/cli.js (ESM, Node) so that it runs as a plain `node`
// process: workspace packages are bundled, packages from node_modules stay external.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));

const externalNodeModules = {
  name: 'external-node-modules',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@synchro/') || args.path.startsWith('node:')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** Builds dist/cli.js, or `outdir`/cli.js when given (tests). */
export async function buildSim(outdir = join(root, 'dist')) {
  await build({
    entryPoints: { cli: join(root, 'src/cli.ts') },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [externalNodeModules],
  });
  return join(outdir, 'cli.js');
}

// `node build.mjs [--outdir DIR]`
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--outdir');
  const cli = await buildSim(at === -1 ? undefined : process.argv[at + 1]);
  console.log(`simulator built: ${cli}`);
}
