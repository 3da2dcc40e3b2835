import { Injectable } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import type { MigrationBounds } from './migration-runner';
import { SqlExample, SqlNotRun } from './sql-example';

/** One background migration's row of a schema's `background_migrations` table. */
export interface BackgroundMigrationRow {
  name: string;
  cursor: string | null;
  rowsDone: number;
  finished: boolean;
  error: string | null;
}

/** Background migrations of a database: one session advisory lock per schema (hashed name). */
const BACKGROUND_LOCK = 7243003;
const OVER_CLIENT_SCHEMA = "runs over an administrative connection to one schema of a client's database";
const ROW = `name, cursor, rows_done::float8 AS "rowsDone", finished_at IS NOT NULL AS finished, error`;

/**
 * The progress table of background data migrations (`background_migrations`, one per schema) and
 * the transaction each batch runs in, over the background migrator's own connection to the schema
 * (search_path: the schema, then `public`). Changes return their row through a SELECT: TypeORM
 * answers an UPDATE with [rows, count].
 */
@Injectable()
export class BackgroundMigrationsRepository {
  /** Whether the schema has the progress table (its client migrations are recent enough). */
  @SqlExample((c) => [c.manager.queryRunner])
  async hasProgressTable(q: QueryRunner): Promise<boolean> {
    const [row]: { present: boolean }[] = await q.query(
      `SELECT to_regclass(quote_ident(current_schema()) || '.background_migrations') IS NOT NULL AS present`,
    );
    return row.present;
  }

  /** The schema migrations the schema recorded. */
  @SqlExample((c) => [c.manager.queryRunner])
  async appliedSchemaMigrations(q: QueryRunner): Promise<Set<string>> {
    const rows: { name: string }[] = await q.query(`SELECT name FROM migrations`);
    return new Set(rows.map((r) => r.name));
  }

  @SqlExample((c) => [c.manager.queryRunner])
  async rows(q: QueryRunner): Promise<BackgroundMigrationRow[]> {
    return q.query(`SELECT ${ROW} FROM background_migrations ORDER BY name`);
  }

  /** Takes the schema's background-migration lock for the session; false when another session holds it. */
  @SqlNotRun('takes a session advisory lock')
  async tryLock(q: QueryRunner): Promise<boolean> {
    const [row]: { locked: boolean }[] = await q.query(
      `SELECT pg_try_advisory_lock($1, hashtext(current_schema())) AS locked`,
      [BACKGROUND_LOCK],
    );
    return row.locked;
  }

  @SqlNotRun(OVER_CLIENT_SCHEMA)
  async unlock(q: QueryRunner): Promise<void> {
    await q.query(`SELECT pg_advisory_unlock($1, hashtext(current_schema()))`, [BACKGROUND_LOCK]);
  }

  /** Records the migration as started (once), then opens a batch's transaction with the lock bounds. */
  @SqlNotRun(OVER_CLIENT_SCHEMA)
  async begin(q: QueryRunner, name: string, bounds: MigrationBounds): Promise<BackgroundMigrationRow> {
    await q.query(`INSERT INTO background_migrations (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, [
      name,
    ]);
    await q.startTransaction();
    await q.query(
      `SELECT set_config('lock_timeout', $1, true), set_config('statement_timeout', $2, true),
              set_config('idle_in_transaction_session_timeout', $3, true)`,
      [bounds.lockTimeoutMs, bounds.statementTimeoutMs, bounds.idleInTransactionTimeoutMs].map(String),
    );
    const [row]: BackgroundMigrationRow[] = await q.query(
      `SELECT ${ROW} FROM background_migrations WHERE name = $1 FOR UPDATE`,
      [name],
    );
    return row;
  }

  /** Records a batch's end (finished when `next` is null) and commits it with the batch's changes. */
  @SqlNotRun(OVER_CLIENT_SCHEMA)
  async commitBatch(
    q: QueryRunner,
    name: string,
    next: string | null,
    rows: number,
  ): Promise<BackgroundMigrationRow> {
    const [row]: BackgroundMigrationRow[] = await q.query(
      `WITH changed AS (
         UPDATE background_migrations
            SET cursor = $2, rows_done = rows_done + $3, error = NULL, updated_at = now(),
                finished_at = CASE WHEN $2::text IS NULL THEN now() END
          WHERE name = $1
          RETURNING *
       )
       SELECT ${ROW} FROM changed`,
      [name, next, rows],
    );
    await q.commitTransaction();
    return row;
  }

  /** Rolls the batch back and records why it failed (the cursor stays where the last batch left it). */
  @SqlNotRun(OVER_CLIENT_SCHEMA)
  async failBatch(q: QueryRunner, name: string, error: string): Promise<BackgroundMigrationRow> {
    if (q.isTransactionActive) await q.rollbackTransaction();
    const [row]: BackgroundMigrationRow[] = await q.query(
      `WITH changed AS (
         UPDATE background_migrations SET error = $2, updated_at = now() WHERE name = $1 RETURNING *
       )
       SELECT ${ROW} FROM changed`,
      [name, error],
    );
    return row;
  }
}
