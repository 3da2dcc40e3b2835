const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] };

/**
 * Two tiers. `controller`: real controllers, guard, pipes and filter over stubbed services, no
 * database, no Redis (`npm run test:controller`). `e2e`: unit specs and the end-to-end tests against
 * PostgreSQL and Redis; its global setup runs only when one of its tests is selected.
 */
/** @type {import('jest').Config} */
module.exports = {
  testTimeout: 60000,
  // Three workers on two cores: an e2e file spends much of its time waiting on PostgreSQL, Redis,
  // child processes and timers, so a third keeps the cores busy (the suite took about 850 s with two,
  // about 550 s with three, on a 2-core machine).
  maxWorkers: 3,
  forceExit: false,
  projects: [
    {
      displayName: 'controller',
      rootDir: '.',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/controller/**/*.controller-spec.ts'],
      transform,
    },
    {
      displayName: 'e2e',
      rootDir: '.',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
      transform,
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      setupFilesAfterEnv: ['<rootDir>/test/support/contract/fail-on-violations.ts'],
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
