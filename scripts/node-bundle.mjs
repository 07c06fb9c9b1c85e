// One Node bundle (ESM) of the server or the simulator, so that each runs as a plain `node`
// process: workspace packages (@synchro/*) are bundled, packages from node_modules stay external.
import { build } from 'esbuild';

const externalNodeModules = {
  name: 'external-node-modules',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@synchro/') || args.path.startsWith('node:')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** Bundles `entryPoints` ({ name: source }) into `outdir` (name.js, with source maps). */
export async function bundleForNode(entryPoints, outdir) {
  await build({
    entryPoints,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [externalNodeModules],
  });
}
