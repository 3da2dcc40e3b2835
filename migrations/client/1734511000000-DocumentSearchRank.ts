import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Search ranks every match through a RUM index, which returns a query's matches best first
 * (`search_vector <=> query`) from the positions it stores, without reading the documents. RUM is
 * an extension (Debian: postgresql-15-rum): when the server does not offer it, or the migration may
 * not create it, nothing is created and search keeps ranking the newest matches (the application
 * looks for the index). Once the server has it, an operator can create the extension in `public`
 * and the index with the statement below in every schema that has document_contents.
 */
export class DocumentSearchRank1734511000000 implements MigrationInterface {
  name = 'DocumentSearchRank1734511000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DO $$
      BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'rum') THEN
          IF NOT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'rum') THEN
            RETURN;
          END IF;
          BEGIN
            CREATE EXTENSION rum SCHEMA public;
          EXCEPTION WHEN insufficient_privilege OR feature_not_supported OR undefined_file THEN
            RAISE NOTICE 'rum not created: %', SQLERRM;
            RETURN;
          END;
        END IF;
        CREATE INDEX IF NOT EXISTS document_contents_rank_idx ON document_contents
          USING rum (search_vector public.rum_tsvector_ops);
      END $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS document_contents_rank_idx`);
  }
}
