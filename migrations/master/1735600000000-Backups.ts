import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Backups of client databases (the objects themselves live in the backup store), and the mark of a
 * client whose database is being restored in place: every replica refuses its requests meanwhile.
 * Safe beside the previous release: the indexes are built on the table this creates (empty), and
 * `clients` only gains a nullable column (no rewrite, a short lock).
 */
export class Backups1735600000000 implements MigrationInterface {
  name = 'Backups1735600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE backups (
        id serial PRIMARY KEY,
        client_id int NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
        kind varchar(10) NOT NULL CHECK (kind IN ('MANUAL', 'SCHEDULED')),
        status varchar(10) NOT NULL DEFAULT 'QUEUED'
          CHECK (status IN ('QUEUED', 'RUNNING', 'COMPLETED', 'FAILED')),
        object_key varchar(300) NOT NULL,
        key_id varchar(40) NOT NULL,
        size_bytes bigint,
        sha256 char(64),
        error varchar(1000),
        started_at timestamptz,
        finished_at timestamptz,
        heartbeat_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX backups_client_idx ON backups (client_id, id DESC);
      CREATE INDEX backups_running_idx ON backups (heartbeat_at) WHERE status = 'RUNNING';
      ALTER TABLE clients ADD COLUMN restoring_since timestamptz;
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE clients DROP COLUMN restoring_since; DROP TABLE backups');
  }
}
