import { MigrationInterface, QueryRunner } from 'typeorm';

/** Tables without a primary key (the AI rollups: their unique keys allow NULLs). */
const WITHOUT_PRIMARY_KEY = [
  'ai_exchange_hours',
  'ai_exchange_days',
  'ai_exchange_user_hours',
  'ai_exchange_latency_days',
  'ai_exchange_latency_hours',
];

/**
 * Every table has a replica identity, so a client can be moved online by logical replication
 * (an UPDATE or DELETE of a published table without one fails). The whole row identifies a row of
 * these tables; a catalog change only, no rewrite.
 */
export class ReplicaIdentity1736200000000 implements MigrationInterface {
  name = 'ReplicaIdentity1736200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of WITHOUT_PRIMARY_KEY) {
      await queryRunner.query(`ALTER TABLE ${table} REPLICA IDENTITY FULL`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of WITHOUT_PRIMARY_KEY) {
      await queryRunner.query(`ALTER TABLE ${table} REPLICA IDENTITY DEFAULT`);
    }
  }
}
