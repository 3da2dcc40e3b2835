import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether each database server runs with wal_level = logical (it can take part in an online move).
 * Nullable without a default, so adding it rewrites nothing: the service reads it when it
 * identifies a server, and null means never read.
 */
export class DatabaseServerLogicalReplication1736300000000 implements MigrationInterface {
  name = 'DatabaseServerLogicalReplication1736300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Migrations run one transaction each: the table's lock is waited for 5 s at most.
    await queryRunner.query(`SET LOCAL lock_timeout = '5s'`);
    await queryRunner.query(`SET LOCAL statement_timeout = '5s'`);
    await queryRunner.query(
      `ALTER TABLE database_servers ADD COLUMN IF NOT EXISTS logical_replication boolean`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE database_servers DROP COLUMN IF EXISTS logical_replication`);
  }
}
