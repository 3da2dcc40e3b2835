import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Progress of the background data migrations (migrations/background) in this schema: one row per
 * migration, the cursor its last committed batch ended at, so a run resumes there.
 */
export class BackgroundMigrations1736300000000 implements MigrationInterface {
  name = 'BackgroundMigrations1736300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE background_migrations (
        name varchar(200) PRIMARY KEY,
        cursor text,
        rows_done bigint NOT NULL DEFAULT 0,
        started_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        error text
      )
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS background_migrations`);
  }
}
