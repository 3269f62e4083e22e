import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import lingui from 'eslint-plugin-lingui';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** A tier's imports may not reach these top-level folders (relative imports, any depth). */
const tier = (name, forbidden) => ({
  regex: `^(\\.\\./)+(${forbidden.join('|')})/`,
  message: `${name}/ may not import from ${forbidden.join(', ')} (import direction: docs/decisions.md).`,
});

/** Outside a server feature, only its index.ts (the plugin and what it shares) may be imported. */
const featureInternals = {
  regex: '(^|/)features/[^/]+/(?!index\\.ts$)',
  message: "Import a server feature through its index.ts, not its internals.",
};

/** Inside a server feature, another feature only through its index.ts. */
const otherFeatureInternals = {
  regex: '^\\.\\./[^./][^/]*/(?!index\\.ts$)',
  message: "Import another server feature through its index.ts, not its internals.",
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.data/', 'test-results/', 'playwright-report/', 'locales/**/*.ts', 'server/db/migrations/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/app/createApp.ts'],
    // `router` is assigned after the session actor that navigates with it is created.
    rules: { 'prefer-const': 'off' },
  },
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', { selector: 'TSEnumDeclaration', message: 'Use a const object (see contract/statusCodes.ts).' }],
    },
  },
  // Import direction between tiers: contract ← machines ← src; contract ← server. Each block lists
  // what a tier may not import (a block per file set, since a later block's option replaces an earlier's).
  {
    files: ['contract/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [tier('contract', ['machines', 'src', 'server', 'tests', 'scripts', 'e2e'])] }] },
  },
  {
    files: ['machines/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [tier('machines', ['src', 'server', 'tests', 'scripts', 'e2e'])] }] },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [tier('src', ['server', 'tests', 'scripts', 'e2e'])] }] },
  },
  {
    files: ['server/**/*.ts'],
    ignores: ['server/features/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [tier('server', ['src', 'machines', 'tests', 'scripts', 'e2e']), featureInternals] }] },
  },
  {
    files: ['server/features/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [tier('server', ['src', 'machines', 'tests', 'scripts', 'e2e']), featureInternals, otherFeatureInternals] },
      ],
    },
  },
  {
    files: ['src/features/**/*.tsx', 'src/shared/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks, lingui },
    // Types let the untranslated-string rule tell UI text from literal-typed values (state names, codes).
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    extends: [jsxA11y.flatConfigs.recommended],
    rules: {
      ...reactHooks.configs.recommended.rules,
      'lingui/no-unlocalized-strings': [
        'error',
        {
          ignore: ['^[^a-zA-Z]*$', '^(Providers|Español|English)$'],
          ignoreNames: [{ regex: { pattern: 'className|Id$|^id$|testid|^type$|^to$|^href$|^name$|autoComplete|inputMode|pattern|^lang$|^key$|^other$' } }],
          useTsTypes: true,
          ignoreFunctions: ['Error', 'console.*', '*.send', '*.matches', '*.hasTag', '*.get', '*.setAttribute', '*.removeAttribute', '*.querySelector', '*.getData', 'String', 'getRouteApi'],
        },
      ],
      'lingui/t-call-in-function': 'error',
      'lingui/no-single-variables-to-translate': 'error',
    },
  },
);
