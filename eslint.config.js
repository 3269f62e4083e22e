import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import lingui from 'eslint-plugin-lingui';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
  {
    files: ['src/flows/**/*.tsx', 'src/components/**/*.tsx'],
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
          ignoreFunctions: ['Error', 'console.*', '*.send', '*.matches', '*.hasTag', '*.get', '*.setAttribute', '*.removeAttribute', '*.querySelector', '*.getData', 'String', 'useSearch'],
        },
      ],
      'lingui/t-call-in-function': 'error',
      'lingui/no-single-variables-to-translate': 'error',
    },
  },
);
