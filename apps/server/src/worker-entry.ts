import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SERVER_ROOT } from './paths.ts';

/**
 * The module of a worker thread: `src/<name>.ts` when running from the sources (tests, tsx),
 * through tsx's loader; `<name>.js` beside the bundle once built (build.mjs).
 */
export function workerEntry(name: 'offload-worker' | 'db-worker'): { filename: string; execArgv: string[] } {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const source = pathToFileURL(join(SERVER_ROOT, `src/${name}.ts`)).href;
    return { filename: source, execArgv: ['--import', 'tsx'] };
  }
  return { filename: new URL(`./${name}.js`, here).href, execArgv: [] };
}
