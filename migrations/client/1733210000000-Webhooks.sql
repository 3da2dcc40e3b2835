-- The SQL migration Webhooks1733210000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
SELECT current_schema() AS schema;
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
COMMIT;

-- In every sandbox_* schema (here sandbox_sql, search_path sandbox_sql, public):
START TRANSACTION;
SELECT current_schema() AS schema;
COMMIT;
