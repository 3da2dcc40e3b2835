import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The transaction pooler (PgBouncer) in front of a database server: its clients' application pools
 * connect there; administrative work keeps using host and port. Both or neither.
 */
export class DatabaseServerPoolers1735400000000 implements MigrationInterface {
  name = 'DatabaseServerPoolers1735400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE database_servers
        ADD COLUMN pooler_host varchar(253),
        ADD COLUMN pooler_port int CHECK (pooler_port BETWEEN 1 AND 65535),
        ADD CONSTRAINT database_servers_pooler_ck CHECK ((pooler_host IS NULL) = (pooler_port IS NULL));
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE database_servers
        DROP CONSTRAINT database_servers_pooler_ck,
        DROP COLUMN pooler_port,
        DROP COLUMN pooler_host;
    `);
  }
}
