import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'reports/**', 'test-results/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.configs.recommended.rules,
    },
  },
  {
    // The browser never parses the configuration and never reaches server code.
    files: ['apps/web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            '@synchro/config-xml',
            '@synchro/server',
            '**/apps/server/**',
            '**/packages/config-xml/**',
          ],
        },
      ],
    },
  },
  {
    // Imported at runtime by the browser (docs/web.md): nothing may pull zod or the schemas in.
    files: [
      'packages/contracts/src/time.ts',
      'packages/contracts/src/sync-id.ts',
      'packages/contracts/src/constants.ts',
    ],
    rules: { 'no-restricted-imports': ['error', { patterns: ['*'] }] },
  },
  {
    files: ['packages/config-xml/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['node:fs', 'fs', 'node:net', 'node:http', 'pg', '@electric-sql/*'] },
      ],
    },
  },
);
