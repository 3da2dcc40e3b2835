import { MigrationInterface, QueryRunner } from 'typeorm';
import { isSandboxSchema } from '../schema-scope';

/**
 * A company's OCR language holds any of the six codes, `german` and `korean` (six letters) included.
 * Documents keep the language they were read in as varchar(10) already.
 */
export class OcrLanguageCodes1734510000000 implements MigrationInterface {
  name = 'OcrLanguageCodes1734510000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (await isSandboxSchema(queryRunner)) return;
    await queryRunner.query(`ALTER TABLE companies ALTER COLUMN ocr_language TYPE varchar(10)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (await isSandboxSchema(queryRunner)) return;
    await queryRunner.query(
      `UPDATE companies SET ocr_language = 'en' WHERE length(ocr_language) > 5;
       ALTER TABLE companies ALTER COLUMN ocr_language TYPE varchar(5)`,
    );
  }
}
