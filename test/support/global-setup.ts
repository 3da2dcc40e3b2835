import { randomBytes } from 'node:crypto';
import { CLIENT_MIGRATIONS } from '../../migrations/client';
import { MASTER_MIGRATIONS } from '../../migrations/master';
import { parseDatabaseUrl, withAdminConnection } from '../../src/database/data-source-factory';
import { runMigrationSet } from '../../src/database/migration-runner';
import { startRunBuild } from './compile-app';
import { ADMIN_URL, databaseUrl, templateDatabase } from './test-env';

/**
 * Creates this run's prefix and a migrated master template that each test file clones; jest's run
 * of the whole suite also starts the app's build, which several test files start as processes.
 */
export default async function globalSetup(config?: { testPathPattern?: string }) {
  process.env.TEST_RUN_PREFIX = `t${Date.now().toString(36).slice(-5)}${randomBytes(2).toString('hex')}`;
  if (config && !config.testPathPattern) startRunBuild();
  const template = templateDatabase();
  await withAdminConnection(parseDatabaseUrl(ADMIN_URL), (pg) => pg.query(`CREATE DATABASE "${template}"`));
  const target = parseDatabaseUrl(databaseUrl(template));
  await runMigrationSet(target, MASTER_MIGRATIONS, { tableName: 'platform_migrations' });
  await runMigrationSet(target, CLIENT_MIGRATIONS);
}
