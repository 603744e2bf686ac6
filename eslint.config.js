import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import eslintConfigPrettier from 'eslint-config-prettier/flat';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { boundaries } from './eslint/boundaries.js';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      '.data/**',
      'src/server/db/migrations/**',
      // Generated from the OpenAPI document (npm run examples:types).
      'examples/api.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    plugins: { boundaries, 'import-x': importX },
    settings: {
      // import-x follows relative imports without extensions to .ts/.tsx files, as TypeScript does.
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${import.meta.dirname}/tsconfig.json` })],
      'import-x/extensions': ['.ts', '.tsx'],
    },
    rules: {
      // The architecture (eslint/boundaries.js and the files beside it); each rule decides which files it binds.
      'boundaries/import-direction': 'error',
      'boundaries/data-access': 'error',
      'boundaries/routes-use-services': 'error',
      'boundaries/module-services': 'error',
      'boundaries/server-layers': 'error',
      'boundaries/workflow-callers': 'error',
      'boundaries/module-cycles': 'error',
      'boundaries/declared-dependencies': 'error',
      // Configuration is parsed once, in src/server/config.ts.
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through src/server/config.ts.' },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // Fastify plugins and handlers are async by contract even when they do not await.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests read untyped JSON answers; asserting on them is the point.
    files: ['**/*.test.{ts,tsx}', 'tests/**', 'e2e/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  {
    // No import cycles in the application (client and server). import-x does not follow type-only imports:
    // they are erased (verbatimModuleSyntax), so they cannot make a module run before the ones it needs.
    // Packages never import src/ back, so the walk stays out of node_modules (reading their .d.ts files
    // would cost about 10 s of CPU per run).
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  { files: ['src/server/config.ts'], rules: { 'no-restricted-properties': 'off' } },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  // Layout is Prettier's (.prettierrc.json): no lint rule may argue with it.
  eslintConfigPrettier,
);
