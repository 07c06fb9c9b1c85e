import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

/** The budget of the JavaScript a first visit of /auth downloads, gzip (docs/web.md, Budget). */
const AUTH_INITIAL_JS_BUDGET_KB = 150;

/**
 * After the build, sums the gzip size of the JS loaded by a first visit of /auth (the entry chunk,
 * the login screen's chunk and their static imports), prints it and fails the build above budget.
 */
function authBudget(): Plugin {
  return {
    name: 'synchro-auth-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, { code: string; imports: string[] }>();
      let entry: string | undefined;
      let login: string | undefined;
      for (const [fileName, output] of Object.entries(bundle)) {
        if (output.type !== 'chunk') continue;
        chunks.set(fileName, { code: output.code, imports: output.imports });
        if (output.isEntry) entry = fileName;
        if (output.facadeModuleId?.endsWith('/features/login/login-page.tsx')) login = fileName;
      }
      if (!entry || !login) return this.warn('auth budget: entry or login chunk not found');
      const loaded = new Set<string>();
      const visit = (fileName: string) => {
        if (loaded.has(fileName)) return;
        loaded.add(fileName);
        for (const imported of chunks.get(fileName)?.imports ?? []) visit(imported);
      };
      visit(entry);
      visit(login);
      const bytes = [...loaded].reduce((sum, f) => sum + gzipSync(chunks.get(f)!.code).length, 0);
      const kb = bytes / 1024;
      const line = `Initial JS of /auth: ${kb.toFixed(1)} KB gzip in ${loaded.size} chunks (budget ${AUTH_INITIAL_JS_BUDGET_KB} KB)`;
      if (kb > AUTH_INITIAL_JS_BUDGET_KB) this.error(line);
      console.log(`\n${line}`);
    },
  };
}

/** The page a signed-in visit of / or /auth gets (apps/server/src/static/spa.ts). */
export const SIGNED_IN_PAGE = 'index-signed-in.html';
/** What a signed-in first load needs after the entry: the layout, Général and its data's module. */
const SIGNED_IN_MODULES = [
  '/src/app/shell/app-shell.tsx',
  '/src/features/dashboard/dashboard-page.tsx',
  '/src/features/dashboard/dashboard-api.ts',
];

/**
 * Writes index-signed-in.html: index.html plus a modulepreload of every chunk the signed-in layout
 * and Général need beyond the entry's (the contracts among them), and a preload of Général's data.
 * The server sends it instead of index.html to a visit of / or /auth that carries a session cookie:
 * those downloads then leave with the page instead of after the entry has run and the session has
 * answered (docs/web.md, Delivery).
 */
function signedInPage(): Plugin {
  return {
    name: 'synchro-signed-in-page',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (html?.type !== 'asset') return this.error('signed-in page: index.html not found');
      const chunks = new Map<string, { imports: string[] }>();
      const wanted: string[] = [];
      let entry: string | undefined;
      for (const [fileName, output] of Object.entries(bundle)) {
        if (output.type !== 'chunk') continue;
        chunks.set(fileName, { imports: output.imports });
        if (output.isEntry) entry = fileName;
        const id = output.facadeModuleId ?? '';
        if (SIGNED_IN_MODULES.some((m) => id.endsWith(m))) wanted.push(fileName);
      }
      if (!entry || wanted.length !== SIGNED_IN_MODULES.length) {
        return this.error(`signed-in page: chunks not found (${wanted.join(', ')})`);
      }
      const closure = (roots: string[]) => {
        const seen = new Set<string>();
        const visit = (f: string) => {
          if (seen.has(f)) return;
          seen.add(f);
          for (const i of chunks.get(f)?.imports ?? []) visit(i);
        };
        roots.forEach(visit);
        return seen;
      };
      const loaded = closure([entry]);
      const extra = [...closure(wanted)].filter((f) => !loaded.has(f));
      const links = [
        ...extra.map((f) => `    <link rel="modulepreload" crossorigin href="/${f}">`),
        '    <link rel="preload" href="/api/dashboard" as="fetch" crossorigin="use-credentials" />',
      ].join('\n');
      const source = String(html.source);
      if (!source.includes('</head>')) return this.error('signed-in page: no </head> in index.html');
      this.emitFile({
        type: 'asset',
        fileName: SIGNED_IN_PAGE,
        source: source.replace(/\s*<\/head>/, `\n${links}\n  </head>`),
      });
    },
  };
}

/** Text files of the build that get a `.br` and a `.gz` beside them (served by apps/server/src/static/spa.ts). */
const PRECOMPRESSED = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/** Below this, compressing saves less than the headers weigh (the server's own threshold too). */
const PRECOMPRESS_MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/**
 * Once the build is written (public files included), writes `<file>.br` (brotli 11) and
 * `<file>.gz` (gzip 9) beside every text file of at least 1 KB, each only when smaller than the
 * file: the server sends them as they are, so the best levels cost nothing per request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'synchro-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      let count = 0;
      let original = 0;
      let compressed = 0;
      const files = (await filesUnder(outDir)).filter((f) => PRECOMPRESSED.test(f));
      await Promise.all(
        files.map(async (file) => {
          const content = await readFile(file);
          if (content.length < PRECOMPRESS_MIN_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(content, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          if (br.length < content.length) await writeFile(`${file}.br`, br);
          if (gz.length < content.length) await writeFile(`${file}.gz`, gz);
          count += 1;
          original += content.length;
          compressed += Math.min(br.length, content.length);
        }),
      );
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
      console.log(`Precompressed ${count} files: ${kb(original)} → ${kb(compressed)} brotli`);
    },
  };
}

// The SPA: served by Vite in development (API proxied to the console server), built to apps/web/dist
// and served by the server in production. `reportCompressedSize` prints the gzip size of every chunk.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss(), authBudget(), signedInPage(), precompress()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://127.0.0.1:5000', changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    reportCompressedSize: true,
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: 'icons', test: /[\\/]lucide-react[\\/]/ }],
        },
      },
    },
  },
});
