import { QueryRunner } from 'typeorm';

/** What one batch did: the cursor the next batch starts after (null: the walk is over) and the rows it passed. */
export interface BatchResult {
  next: string | null;
  rows: number;
}

/**
 * A data change over a table that can be big, run in the background after the schema migrations,
 * batch by batch, in every schema (`public` and each sandbox) of every client database. The runner
 * opens a short transaction for each batch (with the migration lock bounds), calls `batch` in it and
 * records the returned cursor in the schema's `background_migrations` row in the same transaction,
 * so a run that stops (a failure, a restart) resumes after the last committed batch.
 *
 * Like a schema migration, one never changes once landed and imports nothing from src/.
 */
export interface BackgroundMigration {
  /** Stable name: the key of its progress row. */
  readonly name: string;
  /** The schema migration (its recorded name) that must have run in the schema first. */
  readonly after: string;
  /**
   * Changes at most `batchSize` rows following `cursor` (null: from the start) in key order (a
   * keyset walk over the primary key, never OFFSET), idempotently: a batch may run again after a
   * rollback. Runs on the schema's search_path, inside the runner's transaction.
   */
  batch(queryRunner: QueryRunner, cursor: string | null, batchSize: number): Promise<BatchResult>;
}
