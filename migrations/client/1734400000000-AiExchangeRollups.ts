import { MigrationInterface, QueryRunner } from 'typeorm';
import { ROLLUP_COLUMNS, withRollups } from '../../src/ai/log/exchange-rollups';

/**
 * Pre-aggregated AI statistics, kept by the log writer in the same statement as the exchange itself:
 * hourly and daily counts, tokens, cost and latency sums per company, provider and model; hourly cost per user;
 * daily and hourly latency histograms per model (the hourly one only for the parts of a day at the
 * edges of a range). Filled here from the exchanges already logged. company_id may
 * be NULL, so the keys treat NULLs as equal. Nothing deletes exchanges; a retention would have to
 * subtract from these too.
 */
export class AiExchangeRollups1734400000000 implements MigrationInterface {
  name = 'AiExchangeRollups1734400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE ai_exchange_hours (
        hour timestamptz NOT NULL,
        company_id int,
        provider varchar(20) NOT NULL,
        model varchar(200) NOT NULL,
        exchanges bigint NOT NULL,
        tokens bigint NOT NULL,
        cost numeric NOT NULL,
        latency_ms bigint NOT NULL,
        CONSTRAINT ai_exchange_hours_key UNIQUE NULLS NOT DISTINCT (hour, company_id, provider, model)
      );
      CREATE TABLE ai_exchange_days (
        day timestamptz NOT NULL,
        company_id int,
        provider varchar(20) NOT NULL,
        model varchar(200) NOT NULL,
        exchanges bigint NOT NULL,
        tokens bigint NOT NULL,
        cost numeric NOT NULL,
        latency_ms bigint NOT NULL,
        CONSTRAINT ai_exchange_days_key UNIQUE NULLS NOT DISTINCT (day, company_id, provider, model)
      );
      CREATE TABLE ai_exchange_user_hours (
        hour timestamptz NOT NULL,
        company_id int,
        username varchar(255) NOT NULL,
        cost numeric NOT NULL,
        CONSTRAINT ai_exchange_user_hours_key UNIQUE NULLS NOT DISTINCT (hour, company_id, username)
      );
      CREATE TABLE ai_exchange_latency_days (
        day timestamptz NOT NULL,
        company_id int,
        model varchar(200) NOT NULL,
        bucket smallint NOT NULL,
        exchanges bigint NOT NULL,
        CONSTRAINT ai_exchange_latency_days_key UNIQUE NULLS NOT DISTINCT (day, company_id, model, bucket)
      );
      CREATE TABLE ai_exchange_latency_hours (
        hour timestamptz NOT NULL,
        company_id int,
        model varchar(200) NOT NULL,
        bucket smallint NOT NULL,
        exchanges bigint NOT NULL,
        CONSTRAINT ai_exchange_latency_hours_key UNIQUE NULLS NOT DISTINCT (hour, company_id, model, bucket)
      );
    `);
    // No exchange may be written between the back-fill's read and the commit, or it would be missed.
    await queryRunner.query(`LOCK TABLE ai_exchanges IN SHARE MODE`);
    await queryRunner.query(withRollups(`SELECT ${ROLLUP_COLUMNS} FROM ai_exchanges`));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP TABLE IF EXISTS ai_exchange_latency_hours;
      DROP TABLE IF EXISTS ai_exchange_latency_days;
      DROP TABLE IF EXISTS ai_exchange_user_hours;
      DROP TABLE IF EXISTS ai_exchange_days;
      DROP TABLE IF EXISTS ai_exchange_hours;
    `);
  }
}
