// ESLint for the front end (issue 24): typescript-eslint's recommended rules, React's rules of
// hooks, and Tatib's own: numbers and dates are written through src/lib's helpers only, so a
// figure reads "1.200" in Indonesian and "1,200" in English everywhere. `make test` runs it with
// zero warnings allowed.
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const formatting = [
  {
    selector: "CallExpression[callee.property.name=/^(toLocaleString|toLocaleDateString|toLocaleTimeString)$/]",
    message: 'Format numbers and dates with the helpers in src/lib (numbers.ts, dates.ts, useFormatDate), which follow the UI language.',
  },
  {
    selector: "NewExpression[callee.object.name='Intl'][callee.property.name=/^(NumberFormat|DateTimeFormat)$/]",
    message: 'Format numbers and dates with the helpers in src/lib (numbers.ts, dates.ts, useFormatDate), which follow the UI language.',
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['warn', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', ...formatting],
    },
  },
  {
    // The helpers themselves, and tests that check what they produce.
    files: ['src/lib/**', 'src/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['e2e/**/*.mjs', 'scripts/**/*.mjs', '*.config.{js,ts}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    files: ['*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
  },
);
