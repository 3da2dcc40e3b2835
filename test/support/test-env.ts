/** Shared names of one test run: every database, role and Redis key it makes starts with the prefix. */
export const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export function runPrefix(): string {
  const prefix = process.env.TEST_RUN_PREFIX;
  if (!prefix) throw new Error('TEST_RUN_PREFIX is not set: run the tests through jest (global setup)');
  return prefix;
}

export const templateDatabase = () => `${runPrefix()}_tpl`;

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}
