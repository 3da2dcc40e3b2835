import { MigrationInterface, QueryRunner } from 'typeorm';
import { isSandboxSchema } from '../schema-scope';

/**
 * Webhooks, their deliveries and the domain-event outbox. Configuration and delivery state of the
 * client database: `public` only (events raised in a sandbox are not delivered, see docs/webhooks.md).
 */
export class Webhooks1733210000000 implements MigrationInterface {
  name = 'Webhooks1733210000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (await isSandboxSchema(queryRunner)) return;
    await queryRunner.query(`
      CREATE TABLE event_outbox (
        id bigserial PRIMARY KEY,
        event_id uuid NOT NULL,
        event varchar(150) NOT NULL,
        entity_type varchar(100) NOT NULL,
        entity_id bigint,
        company_id int,
        attributes jsonb NOT NULL DEFAULT '{}',
        previous jsonb,
        metadata jsonb,
        occurred_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE TABLE webhooks (
        id serial PRIMARY KEY,
        name varchar(100) NOT NULL,
        description varchar(500),
        url varchar(2000) NOT NULL,
        company_id int REFERENCES companies(id) ON DELETE CASCADE,
        events text[] NOT NULL DEFAULT '{}',
        custom_headers jsonb NOT NULL DEFAULT '{}',
        http_method varchar(10) NOT NULL DEFAULT 'POST' CHECK (http_method IN ('POST', 'PUT', 'PATCH')),
        content_type varchar(100) NOT NULL DEFAULT 'application/json',
        timeout_ms int NOT NULL DEFAULT 30000,
        max_retries int NOT NULL DEFAULT 3,
        verify_ssl boolean NOT NULL DEFAULT true,
        auto_disable_after_failures int NOT NULL DEFAULT 10,
        is_active boolean NOT NULL DEFAULT true,
        consecutive_failures int NOT NULL DEFAULT 0,
        disabled_reason varchar(200),
        secret_encrypted text NOT NULL,
        secret_preview varchar(40) NOT NULL,
        last_delivery_at timestamptz,
        created_by_id int,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX webhooks_company_idx ON webhooks (company_id);
      CREATE TABLE webhook_deliveries (
        id bigserial PRIMARY KEY,
        webhook_id int NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
        event_id varchar(100) NOT NULL,
        event_type varchar(150) NOT NULL,
        payload text NOT NULL,
        is_test boolean NOT NULL DEFAULT false,
        status varchar(10) NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'RETRYING', 'SUCCESS', 'FAILED')),
        attempt_count int NOT NULL DEFAULT 0,
        max_attempts int NOT NULL,
        response_status int,
        error_message varchar(1000),
        duration_ms int,
        next_attempt_at timestamptz,
        completed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, id DESC);
      CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at)
        WHERE status IN ('PENDING', 'RETRYING');
      CREATE INDEX webhook_deliveries_created_idx ON webhook_deliveries (created_at);
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (await isSandboxSchema(queryRunner)) return;
    await queryRunner.query('DROP TABLE webhook_deliveries; DROP TABLE webhooks; DROP TABLE event_outbox');
  }
}
