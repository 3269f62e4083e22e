import { readdirSync } from 'node:fs';
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

/** The feature folders of a tier (machines/shared is the tier's shared folder, not a feature). */
const featuresIn = (dir) =>
  readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'shared')
    .map((entry) => entry.name);
const srcFeatures = featuresIn('./src/features/');
const machineFeatures = featuresIn('./machines/');

/** Inside a feature of `tier`, no import reaches another of its features (only the tier's shared folder). */
const otherFeatures = (tierName, own, all) => ({
  regex: `^(\\.\\./)+(features/)?(${all.filter((name) => name !== own).join('|')})/`,
  message: `${tierName}/${own}/ may not import another feature; move what both need to the shared folder (docs/decisions.md).`,
});

/** src/shared and machines/shared serve every feature, so they import none. */
const anyFeature = (tierName, all) => ({
  regex: `^(\\.\\./)+(features/)?(${all.join('|')})/`,
  message: `${tierName} may not import a feature (docs/decisions.md).`,
});

export default tseslint.config(
  { ignores: ['dist/', 'dist-*/', 'node_modules/', '.data/', 'test-results/', 'playwright-report/', 'locales/**/*.ts', 'server/db/migrations/'] },
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
      'no-restricted-syntax': ['error', { selector: 'TSEnumDeclaration', message: 'Use a const object (see contract/shared/statusCodes.ts).' }],
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
  ...machineFeatures.map((feature) => ({
    files: [`machines/${feature}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [tier('machines', ['src', 'server', 'tests', 'scripts', 'e2e']), otherFeatures('machines', feature, machineFeatures)] },
      ],
    },
  })),
  {
    files: ['machines/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [tier('machines', ['src', 'server', 'tests', 'scripts', 'e2e']), anyFeature('machines/shared', machineFeatures)] },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [tier('src', ['server', 'tests', 'scripts', 'e2e'])] }] },
  },
  {
    // The build leaves a route table entry's `answers` out of the app (vite.config.ts routeAnswersServerOnly);
    // the charts' setup() is machines/shared/setup.ts.
    files: ['src/**/*.{ts,tsx}', 'machines/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'Use a const object (see contract/shared/statusCodes.ts).' },
        ...[
          "MemberExpression[property.name='answers']",
          "MemberExpression[property.value='answers']",
          "MemberExpression > TemplateLiteral.property[quasis.0.value.cooked='answers']",
          "ObjectPattern > Property[key.name='answers']",
          "ObjectPattern > Property[key.value='answers']",
        ].map((selector) => ({
          selector,
          message: "The app's build has no route answers: they are for the server and the OpenAPI document.",
        })),
        {
          selector: "ImportDeclaration[source.value='xstate'][importKind='value'] > ImportSpecifier[imported.name='setup'][importKind='value']",
          message: "Use machines/shared/setup.ts: XState's setup() keeps every built-in action in the bundle.",
        },
      ],
    },
  },
  ...srcFeatures.map((feature) => ({
    files: [`src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [tier('src', ['server', 'tests', 'scripts', 'e2e']), otherFeatures('src/features', feature, srcFeatures)] },
      ],
    },
  })),
  {
    files: ['src/shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [tier('src', ['server', 'tests', 'scripts', 'e2e']), anyFeature('src/shared', srcFeatures)] },
      ],
    },
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
    // pdfjs's legacy build adds a global Iterator that a jsdom loaded after it cannot give its windows
    // on Node 20; test files share their worker's modules, so they open PDFs through tests/support/pdfText.ts,
    // which loads jsdom first.
    files: ['tests/**/*.{ts,tsx}'],
    ignores: ['tests/support/pdfText.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^pdfjs-dist/(legacy/)?build/', allowTypeImports: true, message: 'Open PDFs through tests/support/pdfText.ts (it loads jsdom before pdfjs).' }] },
      ],
    },
  },
  {
    files: ['src/features/**/*.tsx', 'src/shared/**/*.tsx', 'src/app/AppShell.tsx'],
    plugins: { 'react-hooks': reactHooks, lingui },
    // Types let the untranslated-string rule tell UI text from literal-typed values (state names, codes).
    // The app's own program (tsconfig.app.json), not the whole repo's: a quarter less of the lint's time.
    languageOptions: { parserOptions: { project: './tsconfig.app.json', tsconfigRootDir: import.meta.dirname } },
    extends: [jsxA11y.flatConfigs.recommended],
    rules: {
      ...reactHooks.configs.recommended.rules,
      'lingui/no-unlocalized-strings': [
        'error',
        {
          ignore: ['^[^a-zA-Z]*$', '^(Providers|Español|English)$'],
          ignoreNames: [{ regex: { pattern: 'className|Id$|^id$|testid|^type$|^to$|^returnTo$|^href$|^name$|autoComplete|autoCapitalize|autoCorrect|inputMode|pattern|^lang$|^key$|^other$' } }],
          useTsTypes: true,
          ignoreFunctions: ['Error', 'console.*', '*.send', '*.matches', '*.hasTag', '*.get', '*.setAttribute', '*.removeAttribute', '*.setProperty', '*.removeProperty', '*.querySelector', '*.closest', '*.getData', '*.addEventListener', '*.removeEventListener', 'String', 'getRouteApi'],
        },
      ],
      'lingui/t-call-in-function': 'error',
      'lingui/no-single-variables-to-translate': 'error',
    },
  },
);
