import { MigrationInterface, QueryRunner } from 'typeorm';

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
    await queryRunner.query(BACKFILL);
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

/**
 * The back-fill as this migration ran when it landed: every exchange added to the five rollups, with
 * the latency bucket of each. Frozen here; the log writer's own statement may change, this may not.
 */
const BACKFILL = `
    WITH ex AS (SELECT occurred_at, company_id, provider, model, username, total_tokens, cost, latency_ms FROM ai_exchanges),
    binned AS (SELECT *, CASE WHEN latency_ms <= 0 THEN -1 ELSE ceil(ln(latency_ms) / ln(1.02))::int END AS bucket FROM ex),
    r0 AS (
      INSERT INTO ai_exchange_hours AS t (hour, company_id, provider, model, exchanges, tokens, cost, latency_ms)
      SELECT date_bin('1 hour', occurred_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'), company_id, provider, model, count(*), sum(total_tokens), sum(cost), sum(latency_ms)
        FROM binned GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (hour, company_id, provider, model) DO UPDATE SET exchanges = t.exchanges + excluded.exchanges, tokens = t.tokens + excluded.tokens, cost = t.cost + excluded.cost, latency_ms = t.latency_ms + excluded.latency_ms),
    r1 AS (
      INSERT INTO ai_exchange_days AS t (day, company_id, provider, model, exchanges, tokens, cost, latency_ms)
      SELECT date_bin('1 day', occurred_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'), company_id, provider, model, count(*), sum(total_tokens), sum(cost), sum(latency_ms)
        FROM binned GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (day, company_id, provider, model) DO UPDATE SET exchanges = t.exchanges + excluded.exchanges, tokens = t.tokens + excluded.tokens, cost = t.cost + excluded.cost, latency_ms = t.latency_ms + excluded.latency_ms),
    r2 AS (
      INSERT INTO ai_exchange_user_hours AS t (hour, company_id, username, cost)
      SELECT date_bin('1 hour', occurred_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'), company_id, username, sum(cost)
        FROM binned GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (hour, company_id, username) DO UPDATE SET cost = t.cost + excluded.cost),
    r3 AS (
      INSERT INTO ai_exchange_latency_days AS t (day, company_id, model, bucket, exchanges)
      SELECT date_bin('1 day', occurred_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'), company_id, model, bucket, count(*)
        FROM binned GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (day, company_id, model, bucket) DO UPDATE SET exchanges = t.exchanges + excluded.exchanges),
    r4 AS (
      INSERT INTO ai_exchange_latency_hours AS t (hour, company_id, model, bucket, exchanges)
      SELECT date_bin('1 hour', occurred_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'), company_id, model, bucket, count(*)
        FROM binned GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (hour, company_id, model, bucket) DO UPDATE SET exchanges = t.exchanges + excluded.exchanges)
    SELECT count(*)::int AS exchanges FROM ex`;
