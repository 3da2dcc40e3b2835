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
  const sums = {
    exchanges: 'count(*)',
    tokens: 'sum(total_tokens)',
    cost: 'sum(cost)',
    latency_ms: 'sum(latency_ms)',
  };
  const counted = { exchanges: 'count(*)' };
  const rollups = [
    addTo('ai_exchange_hours', 'hour', ['company_id', 'provider', 'model'], sums),
    addTo('ai_exchange_days', 'day', ['company_id', 'provider', 'model'], sums),
    addTo('ai_exchange_user_hours', 'hour', ['company_id', 'username'], { cost: 'sum(cost)' }),
    addTo('ai_exchange_latency_days', 'day', ['company_id', 'model', 'bucket'], counted),
    addTo('ai_exchange_latency_hours', 'hour', ['company_id', 'model', 'bucket'], counted),
  ];
  return `
    WITH ex AS (${source}),
    binned AS (SELECT *, ${latencyBucket('latency_ms')} AS bucket FROM ex),
    ${rollups.map((upsert, i) => `r${i} AS (${upsert})`).join(',\n    ')}
    SELECT count(*)::int AS exchanges FROM ex`;
}

/**
 * The upsert of one rollup from `binned` (the exchanges with their latency bucket): grouped by its
 * period (UTC `hour` or `day`) and `keys`, each of `sums` added to a row already there; key order.
 */
function addTo(table: string, period: 'hour' | 'day', keys: string[], sums: Record<string, string>) {
  const key = [period, ...keys].join(', ');
  const groups = [period, ...keys].map((_, i) => i + 1).join(', ');
  const names = Object.keys(sums);
  return `
      INSERT INTO ${table} AS t (${key}, ${names.join(', ')})
      SELECT date_bin('1 ${period}', occurred_at, ${ORIGIN}), ${keys.join(', ')}, ${Object.values(sums).join(', ')}
        FROM binned GROUP BY ${groups} ORDER BY ${groups}
      ON CONFLICT (${key}) DO UPDATE SET ${names.map((n) => `${n} = t.${n} + excluded.${n}`).join(', ')}`;
}

const HOUR_MS = 3600000;
const DAY_MS = 24 * HOUR_MS;

/**
 * How a range splits over the rollups: its whole hours [h0, h1), and the whole days [d0, d1) inside
 * those; the rest comes from the exchanges. An empty stretch is [x, x) at its end, so every "rest"
 * condition stays right.
 */
export function rollupBounds(range: { start: Date; end: Date }): [Date, Date, Date, Date] {
  const whole = (from: Date, to: Date, unitMs: number): [Date, Date] => {
    const a = Math.ceil(from.getTime() / unitMs) * unitMs;
    const b = Math.floor(to.getTime() / unitMs) * unitMs;
    return a < b ? [new Date(a), new Date(b)] : [to, to];
  };
  const hours = whole(range.start, range.end, HOUR_MS);
  return [...hours, ...whole(hours[0], hours[1], DAY_MS)];
}
