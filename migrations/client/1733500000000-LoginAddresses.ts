import { MigrationInterface, QueryRunner } from 'typeorm';
import { isSandboxSchema } from '../schema-scope';

/**
 * Login state per user and client address: failures in a row and the lock of that pair, and the last
 * successful login from the address (an address with a recent one passes the account-wide lock).
 */
export class LoginAddresses1733500000000 implements MigrationInterface {
  name = 'LoginAddresses1733500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (await isSandboxSchema(queryRunner)) return;
    await queryRunner.query(`
      CREATE TABLE login_addresses (
        user_id int NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        address varchar(100) NOT NULL,
        failed_count int NOT NULL DEFAULT 0,
        locked_at timestamptz,
        locked_until timestamptz,
        last_success_at timestamptz,
        PRIMARY KEY (user_id, address)
      );
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (await isSandboxSchema(queryRunner)) return;
    await queryRunner.query('DROP TABLE login_addresses');
  }
}
