import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What each database server is, whatever address it was registered under: its cluster's system
 * identifier and port. Nullable: the service reads them at its start for the rows already there.
 */
export class DatabaseServerIdentity1736000000000 implements MigrationInterface {
  name = 'DatabaseServerIdentity1736000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE database_servers
        ADD COLUMN system_identifier varchar(20),
        ADD COLUMN cluster_port int;
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE database_servers
        DROP COLUMN cluster_port,
        DROP COLUMN system_identifier;
    `);
  }
}
