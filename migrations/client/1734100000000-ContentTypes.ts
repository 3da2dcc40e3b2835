import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Definitions of custom tables (content types), one row per type, in every schema: a sandbox has
 * its own types. The tables they describe (`cms_<collection>`) are created at runtime.
 */
export class ContentTypes1734100000000 implements MigrationInterface {
  name = 'ContentTypes1734100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE content_type_definitions (
        collection_name varchar(40) PRIMARY KEY,
        definition jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS content_type_definitions`);
  }
}
