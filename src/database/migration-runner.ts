import { Logger } from '@nestjs/common';
import { Client as PgClient } from 'pg';
import { DataSource, MigrationExecutor, MigrationInterface, QueryRunner } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { createDataSource, DbTarget } from './data-source-factory';
import { quoteIdent, quoteLiteral } from './identifiers';

type MigrationClass = new () => MigrationInterface;

const MIGRATION_LOCK = 7243001;
/** SQLSTATE lock_not_available: a statement waited longer than lock_timeout. */
const LOCK_TIMEOUT = '55P03';
const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 30_000;
const logger = new Logger('MigrationRunner');

/** How long a migration may wait and run, and how often one that timed out on a lock is tried again. */
export interface MigrationBounds {
  lockTimeoutMs: number;
  lockRetries: number;
  /** 0: no limit. */
  statementTimeoutMs: number;
  /** 0: no limit. */
  idleInTransactionTimeoutMs: number;
}

/** The settings' defaults (AppConfig), for callers without settings of their own. */
export const DEFAULT_MIGRATION_BOUNDS: MigrationBounds = {
  lockTimeoutMs: 2000,
  lockRetries: 5,
  statementTimeoutMs: 60_000,
  idleInTransactionTimeoutMs: 10_000,
};

export function migrationBounds(config: AppConfig): MigrationBounds {
  return {
    lockTimeoutMs: config.MIGRATION_LOCK_TIMEOUT_MS,
    lockRetries: config.MIGRATION_LOCK_RETRIES,
    statementTimeoutMs: config.MIGRATION_STATEMENT_TIMEOUT_MS,
    idleInTransactionTimeoutMs: config.MIGRATION_IDLE_IN_TRANSACTION_TIMEOUT_MS,
  };
}

/** A migration that timed out on a lock in every attempt; its SQLSTATE stays 55P03. */
export class MigrationLockTimeoutError extends Error {
  readonly code = LOCK_TIMEOUT;

  constructor(migration: string, attempts: number, lockTimeoutMs: number) {
    super(
      `Migration ${migration} waited over ${lockTimeoutMs} ms for a lock in each of ${attempts} attempt(s) ` +
        '(lock timeout; its transaction was rolled back each time)',
    );
    this.name = 'MigrationLockTimeoutError';
  }
}

/**
 * Applies a migration set to one schema of one database, under an advisory lock so that replicas
 * starting together never run the same migration twice. Returns the names of the migrations it ran.
 *
 * Two connections: one holds the advisory lock (and waits for it as long as it takes), the other
 * runs the migrations, each in its own transaction, with bounded lock waits (see runBounded).
 */
export async function runMigrationSet(
  target: DbTarget,
  migrations: MigrationClass[],
  options: { schema?: string; tableName?: string; bounds?: MigrationBounds } = {},
): Promise<string[]> {
  const schema = options.schema ?? 'public';
  const dataSource = createDataSource(target, {
    entities: [],
    poolMax: 2,
    schema,
    migrations,
    migrationsTableName: options.tableName ?? 'migrations',
    applicationName: 'svc-platform:migrator',
  });
  await dataSource.initialize();
  const locker = dataSource.createQueryRunner();
  const runner = dataSource.createQueryRunner();
  try {
    await locker.connect();
    await expectOwnSession(locker, schema);
    await locker.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    if (schema !== 'public') await locker.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    await runner.connect();
    const bounds = options.bounds ?? DEFAULT_MIGRATION_BOUNDS;
    await boundSession(runner, bounds);
    return await runBounded(dataSource, runner, bounds, `${target.database}/${schema}`);
  } finally {
    await runner.release();
    await locker.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => undefined);
    await locker.release();
    await dataSource.destroy();
  }
}

/** The migration session's own limits, set once for all its transactions. */
async function boundSession(runner: QueryRunner, bounds: MigrationBounds) {
  await runner.query(
    `SELECT set_config('lock_timeout', $1, false), set_config('statement_timeout', $2, false),
            set_config('idle_in_transaction_session_timeout', $3, false)`,
    [bounds.lockTimeoutMs, bounds.statementTimeoutMs, bounds.idleInTransactionTimeoutMs].map(String),
  );
}

/**
 * Runs the pending migrations, each in its own transaction. One that times out on a lock has its
 * transaction rolled back (nothing of it stays) and runs again from its start after a jittered
 * exponential backoff, at most `lockRetries` times; the ones before it stay applied. A migration
 * that runs outside a transaction is never retried: it may have left part of its work.
 */
async function runBounded(
  dataSource: DataSource,
  runner: QueryRunner,
  bounds: MigrationBounds,
  where: string,
): Promise<string[]> {
  const executor = new MigrationExecutor(dataSource, runner);
  executor.transaction = 'each';
  const pending = (await executor.getPendingMigrations()).map((m) => m.name);
  const failures = new Map<string, number>();
  for (;;) {
    try {
      await executor.executePendingMigrations();
      return pending;
    } catch (err) {
      if ((err as { code?: unknown }).code !== LOCK_TIMEOUT) throw err;
      const [failed] = await executor.getPendingMigrations();
      if (!failed || failed.instance?.transaction === false) throw err;
      const attempt = (failures.get(failed.name) ?? 0) + 1;
      failures.set(failed.name, attempt);
      if (attempt > bounds.lockRetries) {
        throw new MigrationLockTimeoutError(failed.name, attempt, bounds.lockTimeoutMs);
      }
      const delay = retryDelay(attempt);
      logger.warn(
        `${where}: migration ${failed.name} waited over ${bounds.lockTimeoutMs} ms for a lock ` +
          `(attempt ${attempt} of ${bounds.lockRetries + 1}); rolled back, retrying in ${delay} ms`,
      );
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** The delay before retry `attempt` (1, 2, …): between half and all of 1 s × 2^(attempt-1), at most 30 s. */
export function retryDelay(attempt: number): number {
  const ceiling = Math.min(FIRST_RETRY_MS * 2 ** (attempt - 1), LAST_RETRY_MS);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
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
