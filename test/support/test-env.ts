/** Shared names of one test run: every database, role and Redis key it makes starts with the prefix. */
export const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * A transaction pooler (PgBouncer) in front of the test server, set by test/pgbouncer/run.sh: booted
 * apps then reach the master and the client databases through it, and only their administrative
 * work goes to ADMIN_URL's server directly.
 */
export const POOLER_URL = process.env.TEST_DATABASE_POOLER_URL || undefined;
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

/** `name` reached through the pooler when the run has one, else directly. */
export function pooledDatabaseUrl(name: string): string {
  if (!POOLER_URL) return databaseUrl(name);
  const url = new URL(POOLER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}
