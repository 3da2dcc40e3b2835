import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Search ranks at most a window of a query's matches, the newest ones when more match: a company's
 * searchable documents newest first, so that window is read from the latest documents down and stops
 * when full, whatever the other companies of the schema hold. The key is -id rather than id so that
 * the search's `ORDER BY -id` can come from this index only, never from the primary key.
 */
export class DocumentSearchNewest1734410000000 implements MigrationInterface {
  name = 'DocumentSearchNewest1734410000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX document_contents_searchable_idx ON document_contents (company_id, (-id))
         WHERE search_vector IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS document_contents_searchable_idx`);
  }
}
