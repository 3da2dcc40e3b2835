import { compileApp } from '../support/compile-app';
import { bootApp, TestApp } from '../support/test-app';
import { databaseUrl, runPrefix } from '../support/test-env';
import { Spawned, start, stopAll } from './processes';

const PRINTED = /SUPER_ADMIN (\S+) generated password \(shown once; change it after signing in\): (\S+)/;

/** A fresh deployment started as a newcomer would: no BOOTSTRAP_ADMIN_PASSWORD, a master database to create. */
describe('operations: first run', () => {
  let t: TestApp;
  const processes: Spawned[] = [];

  beforeAll(async () => {
    // The in-process app only lends its settings (Redis, database host); the spawned one is on its own.
    t = await bootApp({ env: { QUEUE_PROCESSORS_ENABLED: 'false' } });
  });
  afterAll(async () => {
    await stopAll(processes);
    await t?.close();
  });

  it('prints the generated SUPER_ADMIN password in clear once, and it signs in', async () => {
    const out = await compileApp();
    const master = `${runPrefix()}_first_run`;
    const env: NodeJS.ProcessEnv = {
      ...t.env,
      DATABASE_URL: databaseUrl(master),
      REDIS_PREFIX: master,
      MULTITENANCY_DB_PREFIX: `${master}_`,
      BOOTSTRAP_ADMIN_EMAIL: 'first.admin@platform.test',
      BOOTSTRAP_ADMIN_PASSWORD: undefined,
    };
    const api = await start('main', env, out);
    processes.push(api);

    const printed = PRINTED.exec(api.output());
    expect(printed?.[1]).toBe('first.admin@platform.test');
    const password = printed![2];
    expect(password).not.toContain('REDACTED');
    expect(api.output().split(password).length - 1).toBe(1);

    const login = await fetch(`http://127.0.0.1:${api.port}/auth/local`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ identifier: 'first.admin@platform.test', password }),
    });
    expect(login.status).toBe(200);
    expect(((await login.json()) as { jwt?: string }).jwt).toEqual(expect.any(String));
  }, 180_000);
});
