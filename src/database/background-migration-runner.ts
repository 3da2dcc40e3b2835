import { Logger } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BackgroundMigration } from '../../migrations/background';
import { BackgroundMigrationRow, BackgroundMigrationsRepository } from './background-migrations.repository';
import { createDataSource, DbTarget } from './data-source-factory';
import { MigrationBounds, retryDelay } from './migration-runner';

/** SQLSTATE lock_not_available: a statement waited longer than lock_timeout. */
const LOCK_TIMEOUT = '55P03';
const logger = new Logger('BackgroundMigrationRunner');

/** A background migration's state in one schema, as a migration job shows it. */
export interface BackgroundMigrationState {
  schema: string;
  name: string;
  rowsDone: number;
  done: boolean;
  error?: string;
}

export interface BackgroundRunOptions {
  schema: string;
  batchSize: number;
  pauseMs: number;
  bounds: MigrationBounds;
  /** Asked before each batch: a reason to stop now (the run resumes there next time), or null. */
  stopReason?: () => Promise<string | null>;
  /** Told after each batch, with the schema's states. */
  onProgress?: (states: BackgroundMigrationState[]) => Promise<void>;
}

export interface BackgroundRun {
  states: BackgroundMigrationState[];
  /** Set when the run stopped before its end for a reason stopReason gave. */
  stopped?: string;
  /** Another session runs this schema's background migrations now: this run did nothing. */
  busy?: boolean;
  /** The failure that ended the run (its message is in the state's `error` and the progress row). */
  failure?: unknown;
}

/**
 * Runs the pending background migrations of one schema of one database, batch by batch, each batch
 * in a transaction of its own with the migration lock bounds (a batch that waits too long for a lock
 * is rolled back and retried like a schema migration), `pauseMs` between batches. One runner per
 * schema at a time (a session advisory lock: a second one answers `busy` with the stored states). A
 * migration runs once its `after` schema migration was recorded in the schema; one that fails stops
 * the run, its row keeping the cursor of the last committed batch and the error.
 */
export async function runBackgroundMigrations(
  target: DbTarget,
  migrations: readonly BackgroundMigration[],
  repository: BackgroundMigrationsRepository,
  options: BackgroundRunOptions,
): Promise<BackgroundRun> {
  const dataSource = createDataSource(target, {
    entities: [],
    poolMax: 1,
    schema: options.schema,
    applicationName: 'svc-platform:background-migrator',
  });
  await dataSource.initialize();
  const q = dataSource.createQueryRunner();
  try {
    await q.connect();
    if (!(await repository.hasProgressTable(q))) return { states: [] };
    if (!(await repository.tryLock(q)))
      return { states: await currentStates(q, migrations, repository, options), busy: true };
    try {
      return await runLocked(q, migrations, repository, options);
    } finally {
      await repository.unlock(q).catch(() => undefined);
    }
  } finally {
    await q.release();
    await dataSource.destroy();
  }
}

async function runLocked(
  q: QueryRunner,
  migrations: readonly BackgroundMigration[],
  repository: BackgroundMigrationsRepository,
  options: BackgroundRunOptions,
): Promise<BackgroundRun> {
  const runnable = await runnableIn(q, migrations, repository);
  const states = await currentStates(q, runnable, repository, options);
  for (const [index, migration] of runnable.entries()) {
    if (states[index].done) continue;
    for (;;) {
      const stopped = (await options.stopReason?.()) ?? null;
      if (stopped) return { states, stopped };
      try {
        const row = await batchWithRetries(q, migration, repository, options);
        states[index] = state(options.schema, migration.name, row);
      } catch (err) {
        const message = (err as Error).message ?? String(err);
        logger.error(`${options.schema}: background migration ${migration.name} failed: ${message}`);
        const row = await repository.failBatch(q, migration.name, message);
        states[index] = state(options.schema, migration.name, row);
        await options.onProgress?.(states);
        return { states, failure: err };
      }
      await options.onProgress?.(states);
      if (states[index].done) break;
      await sleep(options.pauseMs);
    }
  }
  return { states };
}

/** The migrations whose `after` schema migration the schema recorded. */
async function runnableIn(
  q: QueryRunner,
  migrations: readonly BackgroundMigration[],
  repository: BackgroundMigrationsRepository,
): Promise<BackgroundMigration[]> {
  const applied = await repository.appliedSchemaMigrations(q);
  return migrations.filter((m) => applied.has(m.after));
}

/** The stored states of the runnable migrations (the ones not started yet at 0 rows). */
async function currentStates(
  q: QueryRunner,
  migrations: readonly BackgroundMigration[],
  repository: BackgroundMigrationsRepository,
  options: BackgroundRunOptions,
): Promise<BackgroundMigrationState[]> {
  const runnable = await runnableIn(q, migrations, repository);
  const rows = new Map((await repository.rows(q)).map((row) => [row.name, row]));
  return runnable.map((m) => state(options.schema, m.name, rows.get(m.name)));
}

/** One batch; one that timed out on a lock is rolled back and tried again after a backoff. */
async function batchWithRetries(
  q: QueryRunner,
  migration: BackgroundMigration,
  repository: BackgroundMigrationsRepository,
  options: BackgroundRunOptions,
): Promise<BackgroundMigrationRow> {
  for (let attempt = 1; ; attempt++) {
    try {
      const row = await repository.begin(q, migration.name, options.bounds);
      const { next, rows } = await migration.batch(q, row.cursor, options.batchSize);
      return await repository.commitBatch(q, migration.name, next, rows);
    } catch (err) {
      if (q.isTransactionActive) await q.rollbackTransaction();
      if ((err as { code?: unknown }).code !== LOCK_TIMEOUT || attempt > options.bounds.lockRetries)
        throw err;
      await sleep(retryDelay(attempt));
    }
  }
}

function state(
  schema: string,
  name: string,
  row: BackgroundMigrationRow | undefined,
): BackgroundMigrationState {
  return {
    schema,
    name,
    rowsDone: row?.rowsDone ?? 0,
    done: row?.finished ?? false,
    ...(row?.error ? { error: row.error } : {}),
  };
}
