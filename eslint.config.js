import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** The web app's features: each may use components/ui and lib, never another feature. */
const webFeatures = readdirSync(new URL('./apps/web/src/features', import.meta.url));

/** `@typescript-eslint/no-restricted-imports` with the given pattern groups; types stay allowed. */
function restrictImports(...patterns) {
  return ['error', { patterns: patterns.map((p) => ({ allowTypeImports: true, ...p })) }];
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '**/.cache/**',
      '**/coverage/**',
      'e2e/test-results*/**',
      'e2e/.data*/**',
      'e2e/playwright-report/**',
      'reports/**',
      // Stryker's copies of the server while a mutation run is in progress.
      '**/.stryker-tmp*/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      // How import-x reads the modules an import leads to (no-cycle follows them).
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          noWarnOnMultipleProjects: true,
          project: [
            'apps/*/tsconfig.json',
            'packages/*/tsconfig.json',
            'bench/tsconfig.json',
            'e2e/tsconfig.json',
          ],
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      // No module may reach itself again through its imports (type-only imports excepted).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The Web Playback SDK stand-in runs in the page: the sandbox bundles it for the browser.
    files: ['packages/spotify-sandbox/src/sdk/browser/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The layers of the web app (docs/architecture.md): features are composed in app/ only.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          // Zones are relative to the repository, wherever ESLint is started from.
          basePath: fileURLToPath(new URL('.', import.meta.url)),
          zones: [
            ...webFeatures.map((feature) => ({
              target: `./apps/web/src/features/${feature}`,
              from: './apps/web/src/features',
              except: [`./${feature}`],
              message: 'Features never import each other: compose them in app/.',
            })),
            {
              target: './apps/web/src/components/ui',
              from: ['./apps/web/src/features', './apps/web/src/app'],
              message: 'components/ui is shared by every feature and imports none.',
            },
            {
              target: './apps/web/src/lib',
              from: ['./apps/web/src/features', './apps/web/src/app'],
              message: 'lib is below the features and the app shell.',
            },
          ],
        },
      ],
    },
  },
  {
    // Routes parse, authorize, call a service and shape the answer: no SQL, no job internals.
    files: ['apps/server/src/routes/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrictImports(
        {
          group: ['**/db/**', '**/jobs/**'],
          message: 'Routes call services; the tables and queues belong to them.',
        },
        {
          group: ['drizzle-orm', 'drizzle-orm/**', 'pg'],
          message: 'SQL lives in the service that owns the table, not in a route.',
        },
      ),
    },
  },
  {
    // Services are the domain: they know nothing of HTTP routing or Fastify.
    files: [
      'apps/server/src/services/**/*.ts',
      'apps/server/src/jobs/**/*.ts',
      'apps/server/src/spotify/**/*.ts',
      'apps/server/src/db/**/*.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrictImports({
        group: ['**/http/**', '**/routes/**'],
        message:
          'Services never import the HTTP layer; errors with a status come from src/errors.ts.',
      }),
    },
  },
  {
    // Product code reaches the sandbox only through its public entry, where it is wired in.
    files: ['apps/**/*.{ts,tsx}'],
    ignores: ['apps/*/test/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@earshot/spotify-sandbox/*', '!@earshot/spotify-sandbox/plugin'],
              message: 'Use the sandbox only through @earshot/spotify-sandbox/plugin.',
            },
          ],
        },
      ],
    },
  },
  {
    // What the web app shows formats its English without Intl (decision 0043): the first Intl
    // formatter loads the browser's locale data on the main thread of every first load.
    files: ['apps/web/src/**/*.{ts,tsx}', 'packages/contract/src/**/*.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'Intl', message: 'Format with @earshot/contract/english (decision 0043).' },
      ],
      'no-restricted-properties': [
        'error',
        ...['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString'].map((property) => ({
          property,
          message: 'Format with @earshot/contract/english (decision 0043).',
        })),
      ],
    },
  },
);
