import { defineConfig } from 'vitest/config';

// One Vitest run for every unit and API test; browser tests are Playwright's (e2e/).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'config-xml',
          root: './packages/config-xml',
          include: ['{src,test}/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'contracts',
          root: './packages/contracts',
          include: ['{src,test}/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          root: './apps/server',
          include: ['{src,test}/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // One process for every file: each file no longer pays a new worker and a fresh import of
          // the server (about 5 s a file). The files keep no state outside their own app and
          // database; the secrets collector is emptied before each file by the setup file.
          isolate: false,
          setupFiles: ['./test/setup-secret-capture.ts'],
        },
      },
      {
        test: {
          name: 'automate-sim',
          root: './tools/automate-sim',
          include: ['{src,test}/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        test: {
          // Smoke runs of the benches' code paths (no timing asserted): bench/config-xml.
          name: 'bench',
          root: './bench',
          include: ['config-xml/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      './apps/web/vitest.config.ts',
    ],
  },
});
