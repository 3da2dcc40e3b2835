import { MigrationInterface, QueryRunner } from 'typeorm';
import { isSandboxSchema } from '../schema-scope';

/** Phone number (mapped from an IdP attribute) and the profile a JIT-provisioned user starts with. */
export class UserContactAndProfile1733400000000 implements MigrationInterface {
  name = 'UserContactAndProfile1733400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (await isSandboxSchema(queryRunner)) return;
    await queryRunner.query(`
      ALTER TABLE users ADD COLUMN phone_number varchar(50);
      ALTER TABLE users ADD COLUMN profile_id int;
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (await isSandboxSchema(queryRunner)) return;
    await queryRunner.query('ALTER TABLE users DROP COLUMN phone_number, DROP COLUMN profile_id');
  }
}
