-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- AiExchangesRepository.insert
WITH ex AS (INSERT INTO ai_exchanges (id, occurred_at, user_id, username, company_id, provider, model,
         input_tokens, output_tokens, total_tokens, cost, latency_ms, conversation_id, metadata, success)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) ON CONFLICT (id) DO NOTHING RETURNING occurred_at, company_id, provider, model, username, total_tokens, cost, latency_ms),
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

-- AiExchangesRepository.usage
SELECT provider, model, sum(n)::bigint AS count, sum(tokens)::bigint AS tokens,
      (sum(latency_ms)::numeric / sum(n))::float8 AS avg_ms
 FROM (SELECT provider, model, exchanges AS n, tokens, latency_ms
         FROM ai_exchange_days WHERE day >= $6 AND day < $7 AND ($3::int IS NULL OR company_id = $3::int)
       UNION ALL
       SELECT provider, model, exchanges AS n, tokens, latency_ms
         FROM ai_exchange_hours WHERE ((hour >= $4 AND hour < $6) OR (hour >= $7 AND hour < $5)) AND ($3::int IS NULL OR company_id = $3::int)
       UNION ALL
       SELECT provider, model, 1, total_tokens, latency_ms FROM ai_exchanges WHERE ((occurred_at >= $1 AND occurred_at < $4) OR (occurred_at >= $5 AND occurred_at < $2)) AND ($3::int IS NULL OR company_id = $3::int)) x
GROUP BY GROUPING SETS ((provider), (model));

-- AiExchangesRepository.countIn
SELECT (SELECT coalesce(sum(exchanges), 0) FROM ai_exchange_days WHERE day >= $6 AND day < $7 AND ($3::int IS NULL OR company_id = $3::int))
+ (SELECT coalesce(sum(exchanges), 0) FROM ai_exchange_hours WHERE ((hour >= $4 AND hour < $6) OR (hour >= $7 AND hour < $5)) AND ($3::int IS NULL OR company_id = $3::int))
+ (SELECT count(*) FROM ai_exchanges WHERE ((occurred_at >= $1 AND occurred_at < $4) OR (occurred_at >= $5 AND occurred_at < $2)) AND ($3::int IS NULL OR company_id = $3::int)) AS n;

-- AiExchangesRepository.exactP95
SELECT model, percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms)::float8 AS p95_ms
FROM ai_exchanges WHERE occurred_at >= $1 AND occurred_at < $2 AND ($3::int IS NULL OR company_id = $3::int) GROUP BY model;

-- AiExchangesRepository.histogramP95
WITH cells AS (
  SELECT model, bucket, sum(n) AS n
    FROM (SELECT model, bucket, sum(exchanges) AS n FROM ai_exchange_latency_days
           WHERE day >= $6 AND day < $7 AND ($3::int IS NULL OR company_id = $3::int) GROUP BY 1, 2
          UNION ALL
          SELECT model, bucket, sum(exchanges) AS n FROM ai_exchange_latency_hours
           WHERE ((hour >= $4 AND hour < $6) OR (hour >= $7 AND hour < $5)) AND ($3::int IS NULL OR company_id = $3::int) GROUP BY 1, 2
          UNION ALL
          SELECT model, CASE WHEN latency_ms <= 0 THEN -1 ELSE ceil(ln(latency_ms) / ln(1.02))::int END, n
            FROM (SELECT model, latency_ms, count(*) AS n FROM ai_exchanges WHERE ((occurred_at >= $1 AND occurred_at < $4) OR (occurred_at >= $5 AND occurred_at < $2)) AND ($3::int IS NULL OR company_id = $3::int)
                   GROUP BY 1, 2) r) x
   GROUP BY 1, 2
), ranked AS (
  SELECT model, bucket, sum(n) OVER (PARTITION BY model ORDER BY bucket) AS upto,
         0.95 * (sum(n) OVER (PARTITION BY model) - 1) AS rank
    FROM cells
), around AS (
  SELECT model, min(bucket) FILTER (WHERE upto > floor(rank)) AS lo,
         min(bucket) FILTER (WHERE upto > ceil(rank)) AS hi, max(rank - floor(rank)) AS frac
    FROM ranked GROUP BY model
)
SELECT model,
       (CASE WHEN lo < 0 THEN 0 ELSE 2 * power(1.02::float8, lo) / 2.02 END + (CASE WHEN hi < 0 THEN 0 ELSE 2 * power(1.02::float8, hi) / 2.02 END - CASE WHEN lo < 0 THEN 0 ELSE 2 * power(1.02::float8, lo) / 2.02 END) * frac)::float8 AS p95_ms
  FROM around;

-- AiExchangesRepository.costOverHours
SELECT date_bin($6::interval, at, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS time, sum(cost)::float8 AS cost
 FROM (SELECT hour AS at, cost FROM ai_exchange_hours WHERE hour >= $4 AND hour < $5 AND ($3::int IS NULL OR company_id = $3::int)
       UNION ALL
       SELECT occurred_at, cost FROM ai_exchanges WHERE ((occurred_at >= $1 AND occurred_at < $4) OR (occurred_at >= $5 AND occurred_at < $2)) AND ($3::int IS NULL OR company_id = $3::int)) x
GROUP BY 1 ORDER BY 1;

-- AiExchangesRepository.costOverWindows
SELECT date_bin($4::interval, occurred_at, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS time, sum(cost)::float8 AS cost
FROM ai_exchanges WHERE occurred_at >= $1 AND occurred_at < $2 AND ($3::int IS NULL OR company_id = $3::int) GROUP BY 1 ORDER BY 1;

-- AiExchangesRepository.costByProvider
SELECT provider, sum(cost)::float8 AS cost
 FROM (SELECT provider, cost FROM ai_exchange_hours WHERE hour >= $4 AND hour < $5 AND ($3::int IS NULL OR company_id = $3::int)
       UNION ALL
       SELECT provider, cost FROM ai_exchanges WHERE ((occurred_at >= $1 AND occurred_at < $4) OR (occurred_at >= $5 AND occurred_at < $2)) AND ($3::int IS NULL OR company_id = $3::int)) x
GROUP BY provider;

-- AiExchangesRepository.costByUser
SELECT username, sum(cost)::float8 AS cost
 FROM (SELECT username, cost FROM ai_exchange_user_hours WHERE hour >= $4 AND hour < $5 AND ($3::int IS NULL OR company_id = $3::int)
       UNION ALL
       SELECT username, cost FROM ai_exchanges WHERE ((occurred_at >= $1 AND occurred_at < $4) OR (occurred_at >= $5 AND occurred_at < $2)) AND ($3::int IS NULL OR company_id = $3::int)) x
GROUP BY username ORDER BY cost DESC, username LIMIT $6;

-- AiExchangesRepository.conversationTotals
SELECT sum(n)::int AS exchanges, count(conversation_id)::int AS conversations
FROM (SELECT conversation_id, count(*) AS n FROM ai_exchanges WHERE occurred_at >= $1 AND occurred_at < $2 AND ($3::int IS NULL OR company_id = $3::int)
       GROUP BY conversation_id) x;

-- AiExchangesRepository.conversationsOverTime
SELECT date_bin($4::interval, occurred_at, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS time, count(*)::int AS exchanges,
     count(DISTINCT conversation_id)::int AS conversations
FROM ai_exchanges WHERE occurred_at >= $1 AND occurred_at < $2 AND ($3::int IS NULL OR company_id = $3::int) GROUP BY 1 ORDER BY 1;

-- AiExchangesRepository.userExchanges
SELECT id, occurred_at, user_id, username, company_id, provider, model, input_tokens, output_tokens,
      total_tokens, cost::float8 AS cost, latency_ms, conversation_id, metadata, success
 FROM ai_exchanges WHERE occurred_at >= $1 AND occurred_at < $2 AND ($3::int IS NULL OR company_id = $3::int) AND username = $4
ORDER BY occurred_at DESC, id DESC LIMIT $5;
