-- The SQL migration AiExchanges1734200000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
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
COMMIT;

-- In every sandbox_* schema: the same statements.
