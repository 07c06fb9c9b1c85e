import { gzipSync } from 'node:zlib';
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

// The SPA: served by Vite in development (API proxied to the console server), built to apps/web/dist
// and served by the server in production. `reportCompressedSize` prints the gzip size of every chunk.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss(), authBudget()],
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
  },
});
