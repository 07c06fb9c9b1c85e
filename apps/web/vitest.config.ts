import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'web',
    root: import.meta.dirname,
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    // A screen test clicks through Radix widgets on jsdom: seconds, more when the machine is busy.
    testTimeout: 20_000,
  },
});
