import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';
import { layers } from './eslint.layers.mjs';
import { repositories } from './eslint.repositories.mjs';

export default tseslint.config(
  { ignores: ['dist/**', 'deploy/**', 'dist-bench/**', 'node_modules/**', 'vendor/**', 'coverage/**', 'clients/typescript/schema.d.ts', 'jest.config.js', 'eslint.*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-extraneous-class': 'off',
    },
  },
  {
    // Closed tenancy layer: the pool registry and the master DataSource are reached only inside
    // src/tenancy and src/database. Features use TenantDatabase, TenantPools or PlatformDatabase.
    files: ['**/*.ts'],
    ignores: ['src/tenancy/**', 'src/database/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(tenant-data-sources|master-data-source)$',
              message:
                'Internal to src/tenancy and src/database: use TenantDatabase (forClient for jobs), TenantPools or PlatformDatabase.',
            },
          ],
        },
      ],
    },
  },
  ...layers,
  ...repositories,
);
