import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The SPA: served by Vite in development (API proxied to the console server), built to apps/web/dist
// and served by the server in production. `build.reportCompressedSize` prints the gzip size of every
// chunk: the initial JS of /auth must stay under 150 KB gzip (docs/web.md).
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss()],
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
