import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Client moves keep their progress on the master (one row per move job) instead of in a long
 * transaction, and a client's move or migration holds a lease that its worker renews: a worker
 * that stops leaves a lease that runs out, and another worker resumes or undoes its move.
 */
export class ClientMoves1736200000000 implements MigrationInterface {
  name = 'ClientMoves1736200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE client_moves (
        job_id uuid PRIMARY KEY,
        client_id int NOT NULL,
        identifier varchar(100) NOT NULL,
        from_server_id int,
        to_server_id int NOT NULL,
        mode varchar(10) NOT NULL,
        status varchar(10) NOT NULL,
        step varchar(20) NOT NULL,
        error text,
        warning text,
        waiting_for varchar(20),
        lag_bytes bigint,
        target_database varchar(63),
        target_created boolean NOT NULL DEFAULT false,
        source jsonb,
        paused_at timestamptz,
        pause_ms int,
        source_drop_at timestamptz,
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      )
    `);
    await queryRunner.query(`
      CREATE UNIQUE INDEX client_moves_one_open ON client_moves (client_id)
        WHERE status IN ('queued', 'running')
    `);
    await queryRunner.query(`
      CREATE TABLE client_leases (
        client_id int PRIMARY KEY,
        holder varchar(100) NOT NULL,
        purpose varchar(20) NOT NULL,
        expires_at timestamptz NOT NULL
      )
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE client_leases');
    await queryRunner.query('DROP TABLE client_moves');
  }
}
