import boundaries from 'eslint-plugin-boundaries';

/** The kernel: the shared floor every feature stands on. Every other folder directly under src/ is a feature. */
export const KERNEL_FOLDERS = [
  'common',
  'config',
  'database',
  'tenancy',
  'access',
  'audit-trail',
  'events',
  'records',
  'rate-limits',
  'redis',
  'outbound',
  'observability',
  'mail',
];

const kernelGlobs = KERNEL_FOLDERS.map((folder) => `src/${folder}/**`);

const plugin = {
  plugins: { boundaries },
  settings: {
    'boundaries/root-path': import.meta.dirname,
    'boundaries/include': ['src/**/*.ts', 'migrations/**/*.ts'],
    'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import', 'require'],
    'import/resolver': { node: { extensions: ['.ts', '.js', '.json'] } },
    // First match wins: root files and the kernel before the catch-all feature pattern.
    'boundaries/elements': [
      { type: 'root', mode: 'file', pattern: 'src/*.ts' },
      { type: 'kernel', mode: 'folder', pattern: `src/{${KERNEL_FOLDERS.join(',')}}` },
      { type: 'feature', mode: 'folder', pattern: 'src/*', capture: ['feature'] },
      { type: 'migrations', mode: 'folder', pattern: 'migrations' },
    ],
  },
};

/** Who may not import whom; the root may import anything. Imports inside one element are not checked. */
const layerRule = {
  files: ['src/**/*.ts', 'migrations/**/*.ts'],
  ...plugin,
  rules: {
    'boundaries/element-types': [
      'error',
      {
        default: 'allow',
        rules: [
          {
            from: ['kernel'],
            disallow: ['feature', 'root'],
            message: 'The kernel never imports a feature or the root (src/*.ts).',
          },
          {
            from: ['feature'],
            disallow: ['root'],
            message: 'A feature never imports the root (src/*.ts).',
          },
          {
            from: ['migrations'],
            disallow: ['root', 'kernel', 'feature'],
            message: 'Migrations import nothing from src/.',
          },
        ],
      },
    ],
  },
};

/** A feature reaches another feature only through its public file; the root composes modules and may reach inside. */
const publicFileRule = {
  files: ['src/*/**/*.ts'],
  ignores: kernelGlobs,
  ...plugin,
  rules: {
    'boundaries/entry-point': [
      'error',
      {
        default: 'allow',
        rules: [
          {
            target: ['feature'],
            disallow: ['**'],
            message:
              'A feature imports another feature only through its public file src/<feature>/index.ts, not ${dependency.source}.',
          },
          { target: ['feature'], allow: ['index.ts'] },
        ],
      },
    ],
  },
};

/** The layers (docs/conventions.md, "Layers"): root → features → kernel; migrations stand alone. test/, bench/, deploy/ are not checked. */
export const layers = [layerRule, publicFileRule];
