// ESLint (flat config): typescript-eslint with type information, React hooks, jsx-a11y. `npm run lint`; `npm test` runs it.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', '.tmp/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      // A leading underscore marks a name left unused on purpose: a member dropped by rest destructuring, a parameter a signature needs.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // `async` here declares a promise contract (Fastify plugins, hooks and handlers, react-admin's providers, fetch stubs): a throw must reject, not escape synchronously.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['src/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  { files: ['src/**/*.tsx'], ...jsxA11y.flatConfigs.recommended },
  {
    files: ['src/**/*.tsx'],
    ignores: ['src/components/Confirm.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react-admin',
              importNames: ['Confirm'],
              message: "Use src/components/Confirm: it opens on Cancel (react-admin's opens on the confirming button).",
            },
          ],
        },
      ],
    },
  },
  {
    // Tests read untyped JSON replies (`res.json()`): member access on them is the point of the test.
    files: ['tests/**/*.ts', 'bench/**/*.ts', 'src/**/*.test.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
);
