import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Obligation lists sorted by nextDueDate over every status: the partial due-date index serves only
 * the ACTIVE/OVERDUE listings (overdue, upcoming), so a company's whole list sorted by due date read
 * and sorted every row.
 */
export class ObligationDueOrder1734310000000 implements MigrationInterface {
  name = 'ObligationDueOrder1734310000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX compliance_obligations_due_order_idx ON compliance_obligations (company_id, next_due_date, id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS compliance_obligations_due_order_idx`);
  }
}
