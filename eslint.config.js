// ESLint flat config (typescript-eslint): run by `pnpm test` through `pnpm lint`.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', '.kafka/**', 'coverage/**', 'test-output/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      // A leading underscore marks a parameter or binding kept for its position or to omit a key.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
);
