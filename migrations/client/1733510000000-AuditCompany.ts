import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The company an audit entry belongs to (the acting user's), so that callers below ADMIN see only
 * their own company's entries. Existing entries take their user's company; an entry without one
 * (no user, or a user without a company) is seen by ADMIN and above only.
 */
export class AuditCompany1733510000000 implements MigrationInterface {
  name = 'AuditCompany1733510000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE audit_logs ADD COLUMN company_id int;
      CREATE INDEX audit_logs_company_idx ON audit_logs (company_id, timestamp DESC, id DESC);
    `);
    // The append-only guard lets this one backfill through (the setting ends with the transaction).
    await queryRunner.query(`SELECT set_config('audit.retention', 'on', true)`);
    await queryRunner.query(
      `UPDATE audit_logs a SET company_id = u.company_id FROM users u WHERE u.id = a.user_id`,
    );
    await queryRunner.query(`SELECT set_config('audit.retention', 'off', true)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP INDEX IF EXISTS audit_logs_company_idx;
      ALTER TABLE audit_logs DROP COLUMN IF EXISTS company_id;
    `);
  }
}
