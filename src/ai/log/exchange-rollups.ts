/** Buckets start at UTC boundaries: date_bin counts from this origin (a whole hour and day of the epoch). */
export const ORIGIN = `TIMESTAMPTZ '2000-01-01 00:00:00+00'`;

/** The columns of an exchange the rollups are made of, in the order `withRollups` reads them. */
export const ROLLUP_COLUMNS =
  'occurred_at, company_id, provider, model, username, total_tokens, cost, latency_ms';

/**
 * Latency histogram bucket of a value in ms: bucket k holds (1.02^(k-1), 1.02^k], -1 holds 0 (and
 * below). Its representative `latencyOfBucket` (2·1.02^k / 2.02) is within 0.99 % of every value in
 * the bucket, so a percentile read from the buckets is within 1 % of the exact one (as DDSketch).
 */
export const latencyBucket = (ms: string) =>
  `CASE WHEN ${ms} <= 0 THEN -1 ELSE ceil(ln(${ms}) / ln(1.02))::int END`;
export const latencyOfBucket = (bucket: string) =>
  `CASE WHEN ${bucket} < 0 THEN 0 ELSE 2 * power(1.02::float8, ${bucket}) / 2.02 END`;

/**
 * One statement that adds the exchanges `source` yields (the `ROLLUP_COLUMNS` of an `INSERT ...
 * RETURNING` or of a `SELECT`) to the rollups, and answers how many there were:
 * - `ai_exchange_hours` and `ai_exchange_days`: per UTC hour (day), company, provider and model:
 *   exchanges, tokens, cost, latency sum;
 * - `ai_exchange_user_hours`: per UTC hour, company and username: cost;
 * - `ai_exchange_latency_days` and `ai_exchange_latency_hours`: per UTC day (hour), company, model and
 *   latency bucket: exchanges.
 * With an insert that skips ids already held, only the rows really inserted come back, so an exchange
 * written twice is counted once. Rows are upserted in key order, so concurrent writers lock them in the
 * same order and never deadlock. The log writer, the migration's back-fill and the bench all use it.
 */
export function withRollups(source: string): string {
  return `
    WITH ex AS (${source}),
    hours AS (
      INSERT INTO ai_exchange_hours AS t (hour, company_id, provider, model, exchanges, tokens, cost, latency_ms)
      SELECT date_bin('1 hour', occurred_at, ${ORIGIN}), company_id, provider, model,
             count(*), sum(total_tokens), sum(cost), sum(latency_ms)
        FROM ex GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (hour, company_id, provider, model) DO UPDATE SET
        exchanges = t.exchanges + excluded.exchanges, tokens = t.tokens + excluded.tokens,
        cost = t.cost + excluded.cost, latency_ms = t.latency_ms + excluded.latency_ms
    ),
    days AS (
      INSERT INTO ai_exchange_days AS t (day, company_id, provider, model, exchanges, tokens, cost, latency_ms)
      SELECT date_bin('1 day', occurred_at, ${ORIGIN}), company_id, provider, model,
             count(*), sum(total_tokens), sum(cost), sum(latency_ms)
        FROM ex GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (day, company_id, provider, model) DO UPDATE SET
        exchanges = t.exchanges + excluded.exchanges, tokens = t.tokens + excluded.tokens,
        cost = t.cost + excluded.cost, latency_ms = t.latency_ms + excluded.latency_ms
    ),
    users AS (
      INSERT INTO ai_exchange_user_hours AS t (hour, company_id, username, cost)
      SELECT date_bin('1 hour', occurred_at, ${ORIGIN}), company_id, username, sum(cost)
        FROM ex GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (hour, company_id, username) DO UPDATE SET cost = t.cost + excluded.cost
    ),
    latency AS (
      INSERT INTO ai_exchange_latency_days AS t (day, company_id, model, bucket, exchanges)
      SELECT date_bin('1 day', occurred_at, ${ORIGIN}), company_id, model, ${latencyBucket('latency_ms')}, count(*)
        FROM ex GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (day, company_id, model, bucket) DO UPDATE SET exchanges = t.exchanges + excluded.exchanges
    ),
    latency_hours AS (
      INSERT INTO ai_exchange_latency_hours AS t (hour, company_id, model, bucket, exchanges)
      SELECT date_bin('1 hour', occurred_at, ${ORIGIN}), company_id, model, ${latencyBucket('latency_ms')}, count(*)
        FROM ex GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (hour, company_id, model, bucket) DO UPDATE SET exchanges = t.exchanges + excluded.exchanges
    )
    SELECT count(*)::int AS exchanges FROM ex`;
}
