import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Progress of a document being read page by page: `pages_processed` of `page_count`, the latter now
 * known (the PDF's or TIFF's page count) as soon as reading starts. Documents that completed before
 * were read whole.
 */
export class DocumentPagesProcessed1734500000000 implements MigrationInterface {
  name = 'DocumentPagesProcessed1734500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE document_contents ADD COLUMN pages_processed int NOT NULL DEFAULT 0`,
    );
    await queryRunner.query(
      `UPDATE document_contents SET pages_processed = page_count WHERE status = 'completed'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE document_contents DROP COLUMN pages_processed`);
  }
}
