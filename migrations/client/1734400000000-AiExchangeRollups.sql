-- The SQL migration AiExchangeRollups1734400000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
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
LOCK TABLE ai_exchanges IN SHARE MODE;
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
SELECT count(*)::int AS exchanges FROM ex;
COMMIT;

-- In every sandbox_* schema: the same statements.
