import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The AI conversation log: one row per chat exchange (who, provider, model, tokens, cost, latency,
 * conversation id, metadata, success), never the message text. Operational data, so it exists in
 * production and every sandbox schema.
 */
export class AiExchanges1734200000000 implements MigrationInterface {
  name = 'AiExchanges1734200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE ai_exchanges (
        id uuid PRIMARY KEY,
        occurred_at timestamptz NOT NULL,
        user_id int,
        username varchar(255) NOT NULL,
        company_id int,
        provider varchar(20) NOT NULL,
        model varchar(200) NOT NULL,
        input_tokens int NOT NULL DEFAULT 0,
        output_tokens int NOT NULL DEFAULT 0,
        total_tokens int NOT NULL DEFAULT 0,
        cost numeric(18, 8) NOT NULL DEFAULT 0,
        latency_ms int NOT NULL,
        conversation_id varchar(200),
        metadata jsonb,
        success boolean NOT NULL
      );
      CREATE INDEX ai_exchanges_time_idx ON ai_exchanges (occurred_at);
      CREATE INDEX ai_exchanges_company_time_idx ON ai_exchanges (company_id, occurred_at);
      CREATE INDEX ai_exchanges_user_time_idx ON ai_exchanges (username, occurred_at DESC);
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS ai_exchanges`);
  }
}
