// One Node bundle (ESM) of the server or the simulator, so that each runs as a plain `node`
// process: workspace packages (@synchro/*) are bundled, packages from node_modules stay external.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
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

/**
 * Bundles `entryPoints` ({ name: source }) into `outdir` (name.js, with source maps). Each file is
 * written beside its place and renamed over it: a process started meanwhile (a test starting the
 * simulator while another rebuilds it) reads the old file or the new one, never half of one.
 */
export async function bundleForNode(entryPoints, outdir) {
  const result = await build({
    entryPoints,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [externalNodeModules],
    write: false,
  });
  for (const file of result.outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    const partial = `${file.path}.${process.pid}.tmp`;
    writeFileSync(partial, file.contents);
    renameSync(partial, file.path);
  }
}
