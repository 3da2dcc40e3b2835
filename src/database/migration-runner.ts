import { Client as PgClient } from 'pg';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { createDataSource, DbTarget } from './data-source-factory';
import { quoteIdent, quoteLiteral } from './identifiers';

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
    await expectOwnSession(runner, schema);
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

/**
 * Migrations rely on a session: the schema's search_path comes with the connection's startup
 * options and the advisory lock lasts until the end. A transaction pooler that drops the options
 * (`ignore_startup_parameters = options`) shows here, before anything lands in the wrong schema.
 */
async function expectOwnSession(runner: QueryRunner, schema: string) {
  const [{ search_path: searchPath }] = (await runner.query('SHOW search_path')) as { search_path: string }[];
  const expected = schema === 'public' ? 'public' : `${schema},public`;
  if (searchPath.replace(/["\s]/g, '') !== expected) {
    throw new Error(
      `Migrations need a direct database connection, not a transaction pooler (search_path is ${searchPath}, expected ${expected})`,
    );
  }
}

/** A migration's name as TypeORM records it: its `name` property, else its class name. */
export function migrationName(migration: MigrationClass): string {
  return new migration().name ?? migration.name;
}

/** A migration's timestamp: the 13 digits its name ends with, TypeORM's own rule. */
export function migrationTimestamp(name: string): number {
  const digits = /(\d{13})$/.exec(name);
  if (!digits) throw new Error(`Migration name without a timestamp: ${name}`);
  return Number(digits[1]);
}

/** The names of a set's migrations newer than `applied` (all of them when nothing ran). */
export function migrationsAfter(migrations: MigrationClass[], applied: string | null): string[] {
  const since = applied === null ? -1 : migrationTimestamp(applied);
  return migrations.map(migrationName).filter((name) => migrationTimestamp(name) > since);
}

/**
 * The newest migration each schema of a database has recorded (null when its `migrations` table is
 * missing or empty), read over one connection in two queries: the schemas named `public` or LIKE
 * `schemaLike`, then one row per schema from its table. The migrations' own metadata is never loaded.
 */
export async function newestMigrations(
  pg: PgClient,
  schemaLike: string,
): Promise<Map<string, string | null>> {
  const { rows: schemas } = await pg.query<{ schema: string; has_table: boolean }>(
    `SELECT n.nspname AS schema, to_regclass(quote_ident(n.nspname) || '.migrations') IS NOT NULL AS has_table
       FROM pg_namespace n WHERE n.nspname = 'public' OR n.nspname LIKE $1`,
    [schemaLike],
  );
  const newest = new Map<string, string | null>(schemas.map((s) => [s.schema, null]));
  const withTable = schemas.filter((s) => s.has_table).map((s) => s.schema);
  if (!withTable.length) return newest;
  const { rows } = await pg.query<{ schema: string; name: string | null }>(
    withTable
      .map(
        (schema) =>
          `SELECT ${quoteLiteral(schema)} AS schema, (SELECT name FROM ${quoteIdent(schema)}.migrations ORDER BY timestamp DESC, id DESC LIMIT 1) AS name`,
      )
      .join(' UNION ALL '),
  );
  for (const row of rows) newest.set(row.schema, row.name);
  return newest;
}
