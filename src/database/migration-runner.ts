import { MigrationInterface } from 'typeorm';
import { createDataSource, DbTarget } from './data-source-factory';
import { quoteIdent } from './ddl';

type MigrationClass = new () => MigrationInterface;

const MIGRATION_LOCK = 7243001;

/**
 * Applies a migration set to one schema of one database over a single short-lived connection,
 * under an advisory lock so that replicas starting together never run the same migration twice.
 * Returns the names of the migrations it ran.
 */
export async function runMigrationSet(
  target: DbTarget,
  migrations: MigrationClass[],
  options: { schema?: string; tableName?: string } = {},
): Promise<string[]> {
  const schema = options.schema ?? 'public';
  const dataSource = createDataSource(target, {
    entities: [],
    poolMax: 2, // one connection holds the advisory lock, the other runs the migrations
    schema,
    migrations,
    migrationsTableName: options.tableName ?? 'migrations',
    applicationName: 'svc-platform:migrator',
  });
  await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    if (schema !== 'public') await runner.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    const ran = await dataSource.runMigrations({ transaction: 'each' });
    return ran.map((m) => m.name);
  } finally {
    await runner.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => undefined);
    await runner.release();
    await dataSource.destroy();
  }
}

/** Migration names of a set that a schema has not run yet, and the newest one it has. */
export async function migrationStatus(
  target: DbTarget,
  migrations: MigrationClass[],
  schema = 'public',
): Promise<{ currentVersion: string | null; pendingVersions: string[] }> {
  const dataSource = createDataSource(target, {
    entities: [],
    poolMax: 1,
    schema,
    applicationName: 'svc-platform:migrator',
  });
  await dataSource.initialize();
  try {
    const [exists] = await dataSource.query('SELECT to_regclass($1) AS t', [
      `${quoteIdent(schema)}.migrations`,
    ]);
    const executed: { name: string }[] = exists.t
      ? await dataSource.query(`SELECT name FROM ${quoteIdent(schema)}.migrations ORDER BY timestamp`)
      : [];
    const done = new Set(executed.map((row) => row.name));
    const known = migrations.map((m) => new m().name ?? m.name);
    return {
      currentVersion: executed.length ? executed[executed.length - 1].name : null,
      pendingVersions: known.filter((name) => !done.has(name)),
    };
  } finally {
    await dataSource.destroy();
  }
}
