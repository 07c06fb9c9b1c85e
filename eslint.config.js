import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import webImportX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver as webImportResolver } from 'eslint-import-resolver-typescript';
import serverImportX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver as serverImportResolver } from 'eslint-import-resolver-typescript';

// ---------------------------------------------------------------------------------------------
// apps/server: layers (docs/architecture.md, "Server"). One direction: main.ts, app.ts → features/
// <area> → http/ (AppError, validation, session guard) → domain/ (data modules) → db/; security/,
// time/, config/, static/, network/ and paths.ts are leaves. Every folder of features/ is an area.
const SERVER_SRC = 'apps/server/src';
const SERVER_AREAS = readdirSync(new URL(`./${SERVER_SRC}/features`, import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const inServer = (...paths) => paths.map((path) => `${SERVER_SRC}/${path}`);
const SERVER_LEAVES = inServer('security', 'time', 'config', 'static', 'network', 'mail', 'paths.ts');
const serverLayers = {
  files: [`${SERVER_SRC}/**/*.ts`],
  plugins: { 'import-x': serverImportX },
  settings: {
    'import-x/resolver-next': [
      serverImportResolver({ project: `${import.meta.dirname}/apps/server/tsconfig.json` }),
    ],
  },
  rules: {
    'import-x/no-restricted-paths': [
      'error',
      {
        basePath: import.meta.dirname,
        zones: [
          ...SERVER_AREAS.map((area) => ({
            target: inServer(`features/${area}`),
            from: inServer('features'),
            except: [`./${area}`],
            message:
              'A feature never imports another feature: shared data goes to domain/, shared HTTP helpers to http/.',
          })),
          {
            target: [
              ...inServer('features', 'http', 'domain', 'db', 'offload', 'context.ts'),
              ...SERVER_LEAVES,
            ],
            from: inServer('app.ts', 'main.ts', 'offload-worker.ts', 'admin', 'demo'),
            message:
              'Nothing imports the composition (app.ts, main.ts, offload-worker.ts) or the admin and demo entry points.',
          },
          {
            target: inServer('http', 'admin', 'demo'),
            from: inServer('features'),
            message: 'http/, admin/ and demo/ import no feature: they use domain/.',
          },
          {
            target: inServer('domain', 'db', 'offload'),
            from: inServer('features', 'context.ts'),
            message: 'domain/, db/ and offload/ import no feature.',
          },
          {
            target: inServer('domain', 'db', 'offload'),
            from: inServer('http'),
            except: ['./errors.ts'],
            message: 'domain/, db/ and offload/ use AppError (http/errors.ts) and nothing else of http/.',
          },
          {
            target: inServer('offload'),
            from: inServer('domain', 'db'),
            message: 'offload/ (the worker pool) imports no layer but AppError.',
          },
          {
            target: inServer('db'),
            from: inServer('domain'),
            message: 'db/ imports nothing above it.',
          },
          {
            target: inServer('context.ts'),
            from: inServer('features', 'http'),
            message: 'context.ts (what the routes receive) imports no feature and nothing of http/.',
          },
          {
            target: SERVER_SRC,
            from: ['apps/web', 'tools', 'e2e', 'bench'],
            message: 'The server imports only its own code and packages/ (contracts, config-xml).',
          },
          {
            target: SERVER_LEAVES,
            from: inServer('features', 'http', 'domain', 'db', 'context.ts'),
            message:
              'security/, time/, config/, static/, network/ and paths.ts are leaves: they import no layer.',
          },
        ],
      },
    ],
  },
};

// ---------------------------------------------------------------------------------------------
// Package directions (docs/architecture.md, "Packages"): web → contracts; server → contracts,
// config-xml; config-xml → contracts; nothing imports apps/*. apps/web has its own rules above
// (no config-xml, no server); this block covers the packages, tools, e2e and bench.
const packageDirections = {
  files: [
    'packages/**/*.{ts,tsx,mts,js,mjs}',
    'tools/**/*.{ts,mts,js,mjs}',
    'e2e/**/*.ts',
    'bench/**/*.{ts,mjs}',
  ],
  plugins: { 'import-x': serverImportX },
  rules: {
    'import-x/no-restricted-paths': [
      'error',
      {
        basePath: import.meta.dirname,
        zones: [
          {
            target: ['packages', 'tools', 'e2e', 'bench'],
            from: 'apps',
            message: 'Nothing imports apps/*: share code through packages/.',
          },
          {
            target: 'packages/contracts',
            from: ['packages/config-xml', 'tools'],
            message: '@synchro/contracts depends on no other workspace package.',
          },
          {
            target: 'packages/config-xml',
            from: 'tools',
            message: '@synchro/config-xml depends on @synchro/contracts only.',
          },
        ],
      },
    ],
  },
};

// ---------------------------------------------------------------------------------------------
// The whole repository: no import cycle (docs/architecture.md, "Checks"). Workspace packages are
// followed through their sources, so a cycle between two packages counts too.
const importCycles = {
  files: ['**/*.{ts,tsx,mts,js,mjs}'],
  plugins: { 'import-x': serverImportX },
  settings: {
    // The files the rule reads to follow imports (only .js without this), and the workspace
    // packages as internal modules (followed, not skipped as external).
    'import-x/extensions': serverImportX.flatConfigs.typescript.settings['import-x/extensions'],
    'import-x/parsers': serverImportX.flatConfigs.typescript.settings['import-x/parsers'],
    'import-x/internal-regex': '^@synchro/',
    'import-x/resolver-next': [
      serverImportResolver({
        project: [
          'apps/*/tsconfig.json',
          'packages/*/tsconfig.json',
          'tools/*/tsconfig.json',
          'e2e/tsconfig.json',
          'bench/tsconfig.json',
        ].map((project) => `${import.meta.dirname}/${project}`),
        noWarnOnMultipleProjects: true,
      }),
    ],
  },
  rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
};
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// apps/web: import boundaries (docs/architecture.md, "Web"). One direction: app/ → features/<screen>
// → forms/, state/ → components/, lib/. Every folder of features/ is a screen.
const WEB_SRC = 'apps/web/src';
const WEB_SCREENS = readdirSync(new URL(`./${WEB_SRC}/features`, import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const webBoundaries = {
  files: [`${WEB_SRC}/**/*.{ts,tsx}`],
  plugins: { 'import-x': webImportX },
  settings: {
    'import-x/resolver-next': [
      webImportResolver({ project: `${import.meta.dirname}/apps/web/tsconfig.json` }),
    ],
  },
  rules: {
    'import-x/no-restricted-paths': [
      'error',
      {
        basePath: import.meta.dirname,
        zones: [
          ...WEB_SCREENS.map((screen) => ({
            target: `${WEB_SRC}/features/${screen}`,
            from: `${WEB_SRC}/features`,
            except: [`./${screen}`],
            message:
              'A screen never imports another screen: move what both need to forms/, state/, components/ or lib/.',
          })),
          {
            target: `${WEB_SRC}/features`,
            from: `${WEB_SRC}/app`,
            message: 'A screen never imports app/ (app/ assembles the screens).',
          },
          {
            target: ['forms', 'state', 'components', 'lib'].map((dir) => `${WEB_SRC}/${dir}`),
            from: [`${WEB_SRC}/features`, `${WEB_SRC}/app`],
            message: 'Shared code (forms/, state/, components/, lib/) imports no screen and not app/.',
          },
          {
            target: [`${WEB_SRC}/components`, `${WEB_SRC}/lib`],
            from: [`${WEB_SRC}/forms`, `${WEB_SRC}/state`],
            message: 'components/ and lib/ import neither forms/ nor state/.',
          },
        ],
      },
    ],
  },
};
// ---------------------------------------------------------------------------------------------

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'reports/**',
      'test-results/**',
      '.tmp/**',
      '**/*.d.ts',
    ],
  },
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
    // A feature's routes.ts is HTTP only: its SQL is in the area's service and helpers
    // (docs/architecture.md, Server). Routes receive the database as ctx.db and hand it on.
    files: ['apps/server/src/features/*/routes.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name=/^(query|exec|transaction)$/][callee.object.property.name='db']",
          message: "routes.ts runs no SQL: call the area's service with ctx.db.",
        },
        {
          selector:
            "CallExpression[callee.property.name=/^(query|exec|transaction)$/][callee.object.name='db']",
          message: "routes.ts runs no SQL: call the area's service with ctx.db.",
        },
      ],
    },
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
  webBoundaries,
  serverLayers,
  packageDirections,
  importCycles,
);
