import { Injectable } from '@nestjs/common';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { AiSettings } from '../ai.settings';
import { windowInterval, windowMinutes } from '../dto/stats.dto';
import { CountTokens, Exchange, ExchangeStore, StatsRange } from './exchange';
import { latencyBucket, latencyOfBucket, ORIGIN, ROLLUP_COLUMNS, withRollups } from './exchange-rollups';

const IN_RANGE = `occurred_at >= $1 AND occurred_at < $2 AND ($3::int IS NULL OR company_id = $3)`;
const IN_REACH = `($3::int IS NULL OR company_id = $3)`;
/** The whole hours [$4, $5) come from a rollup; the rest of the range, at its two edges, from raw rows. */
const WHOLE = (column: string) => `${column} >= $4 AND ${column} < $5 AND ${IN_REACH}`;
/** The whole days [$6, $7) inside the whole hours. */
const WHOLE_DAYS = `day >= $6 AND day < $7 AND ${IN_REACH}`;
/** The whole hours outside the whole days [$6, $7). */
const HOURS_BESIDE_DAYS = `((hour >= $4 AND hour < $6) OR (hour >= $7 AND hour < $5)) AND ${IN_REACH}`;
const EDGES = `((occurred_at >= $1 AND occurred_at < $4) OR (occurred_at >= $5 AND occurred_at < $2)) AND ${IN_REACH}`;

const HOUR_MS = 3600000;
const DAY_MS = 24 * HOUR_MS;

type Row = Record<string, string | number | null>;

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

/**
 * The conversation log in the client database (`ai_exchanges`, in the schema of the request). Every
 * figure is computed by PostgreSQL (sums, percentile_cont, date_bin); Node only reshapes the rows.
 * Counts, tokens, costs and averages come from the rollups (daily ones for the whole days of a range,
 * hourly ones for its other whole hours) and from the exchanges themselves for the parts of an hour at
 * its edges, so they are exact; see
 * `exchange-rollups.ts`.
 */
@Injectable()
export class PostgresExchangeStore implements ExchangeStore {
  constructor(
    private readonly db: TenantDatabase,
    private readonly settings: AiSettings,
  ) {}

  async write(exchanges: Exchange[]): Promise<void> {
    if (!exchanges.length) return;
    const values: unknown[] = [];
    const rows = exchanges.map((e) => {
      const base = values.length;
      values.push(
        e.id,
        e.occurredAt,
        e.userId,
        e.username,
        e.companyId,
        e.provider,
        e.model,
        e.inputTokens,
        e.outputTokens,
        e.totalTokens,
        e.estimatedCost,
        e.latencyMs,
        e.conversationId,
        e.metadata === null ? null : JSON.stringify(e.metadata),
        e.success,
      );
      return `(${Array.from({ length: 15 }, (_, i) => `$${base + i + 1}`).join(', ')})`;
    });
    // One statement (the rollups are in it): atomic alone, so no transaction around it in production.
    await this.db.run((m) =>
      m.query(
        withRollups(
          `INSERT INTO ai_exchanges (id, occurred_at, user_id, username, company_id, provider, model,
             input_tokens, output_tokens, total_tokens, cost, latency_ms, conversation_id, metadata, success)
           VALUES ${rows.join(', ')} ON CONFLICT (id) DO NOTHING RETURNING ${ROLLUP_COLUMNS}`,
        ),
        values,
      ),
    );
  }

  private params(range: StatsRange): unknown[] {
    return [range.start, range.end, range.companyId];
  }

  /**
   * $1 to $7: the range and its company, the whole hours inside it [$4, $5), and the whole days inside
   * those [$6, $7). An empty stretch is [x, x) at its end, so every "rest" condition stays right.
   */
  private split(range: StatsRange): unknown[] {
    const whole = (from: Date, to: Date, unitMs: number): [Date, Date] => {
      const a = Math.ceil(from.getTime() / unitMs) * unitMs;
      const b = Math.floor(to.getTime() / unitMs) * unitMs;
      return a < b ? [new Date(a), new Date(b)] : [to, to];
    };
    const hours = whole(range.start, range.end, HOUR_MS);
    return [...this.params(range), ...hours, ...whole(hours[0], hours[1], DAY_MS)];
  }

  async stats(range: StatsRange) {
    const bounds = this.split(range);
    const [rows, p95] = await Promise.all([
      this.db.query<Row>(
        `SELECT provider, model, sum(n)::bigint AS count, sum(tokens)::bigint AS tokens,
                (sum(latency_ms)::numeric / sum(n))::float8 AS avg_ms
           FROM (SELECT provider, model, exchanges AS n, tokens, latency_ms
                   FROM ai_exchange_days WHERE ${WHOLE_DAYS}
                 UNION ALL
                 SELECT provider, model, exchanges AS n, tokens, latency_ms
                   FROM ai_exchange_hours WHERE ${HOURS_BESIDE_DAYS}
                 UNION ALL
                 SELECT provider, model, 1, total_tokens, latency_ms FROM ai_exchanges WHERE ${EDGES}) x
          GROUP BY GROUPING SETS ((provider), (model))`,
        bounds,
      ),
      this.p95ByModel(range, bounds),
    ]);
    const counts = (key: string) =>
      Object.fromEntries(
        rows
          .filter((r) => r[key] !== null)
          .map((r): [string, CountTokens] => [
            String(r[key]),
            { count: num(r.count), totalTokens: num(r.tokens) },
          ]),
      );
    return {
      statsByProvider: counts('provider'),
      statsByModel: counts('model'),
      latencyByModel: Object.fromEntries(
        rows
          .filter((r) => r.model !== null)
          .map((r) => [String(r.model), { avgMs: num(r.avg_ms), p95Ms: p95.get(String(r.model)) ?? 0 }]),
      ),
    };
  }

  /**
   * p95 latency per model: percentile_cont over the exchanges when the range holds at most
   * AI_STATS_EXACT_PERCENTILE_LIMIT of them (counted from the hourly rollup); above, the same
   * interpolation between the two ranks around the 95th, read from the daily latency histogram for
   * whole days, the hourly one for the other whole hours and the exchanges themselves (bucketed alike)
   * for the parts of an hour at the edges: within 1 % of the exact value.
   */
  private async p95ByModel(range: StatsRange, bounds: unknown[]): Promise<Map<string, number>> {
    const [{ n }] = await this.db.query<Row>(
      `SELECT (SELECT coalesce(sum(exchanges), 0) FROM ai_exchange_days WHERE ${WHOLE_DAYS})
            + (SELECT coalesce(sum(exchanges), 0) FROM ai_exchange_hours WHERE ${HOURS_BESIDE_DAYS})
            + (SELECT count(*) FROM ai_exchanges WHERE ${EDGES}) AS n`,
      bounds,
    );
    const rows =
      num(n) <= this.settings.AI_STATS_EXACT_PERCENTILE_LIMIT
        ? await this.db.query<Row>(
            `SELECT model, percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms)::float8 AS p95_ms
               FROM ai_exchanges WHERE ${IN_RANGE} GROUP BY model`,
            this.params(range),
          )
        : await this.db.query<Row>(
            `WITH cells AS (
               SELECT model, bucket, sum(n) AS n
                 FROM (SELECT model, bucket, sum(exchanges) AS n FROM ai_exchange_latency_days
                        WHERE ${WHOLE_DAYS} GROUP BY 1, 2
                       UNION ALL
                       SELECT model, bucket, sum(exchanges) AS n FROM ai_exchange_latency_hours
                        WHERE ${HOURS_BESIDE_DAYS} GROUP BY 1, 2
                       UNION ALL
                       SELECT model, ${latencyBucket('latency_ms')}, n
                         FROM (SELECT model, latency_ms, count(*) AS n FROM ai_exchanges WHERE ${EDGES}
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
                    (${latencyOfBucket('lo')} + (${latencyOfBucket('hi')} - ${latencyOfBucket('lo')}) * frac)::float8 AS p95_ms
               FROM around`,
            bounds,
          );
    return new Map(rows.map((r) => [String(r.model), num(r.p95_ms)]));
  }

  async costs(range: StatsRange, windowSize: string, userLimit: number) {
    const interval = windowInterval(windowSize);
    const p = this.split(range).slice(0, 5);
    const [overTime, byProvider, byUser] = await Promise.all([
      // A window of whole hours is made of whole hourly rollups; a shorter or ragged one (15m, 90m) is
      // summed from the exchanges themselves.
      windowMinutes(windowSize) % 60 === 0
        ? this.db.query<Row>(
            `SELECT date_bin($6::interval, at, ${ORIGIN}) AS time, sum(cost)::float8 AS cost
               FROM (SELECT hour AS at, cost FROM ai_exchange_hours WHERE ${WHOLE('hour')}
                     UNION ALL
                     SELECT occurred_at, cost FROM ai_exchanges WHERE ${EDGES}) x
              GROUP BY 1 ORDER BY 1`,
            [...p, interval],
          )
        : this.db.query<Row>(
            `SELECT date_bin($4::interval, occurred_at, ${ORIGIN}) AS time, sum(cost)::float8 AS cost
               FROM ai_exchanges WHERE ${IN_RANGE} GROUP BY 1 ORDER BY 1`,
            [...this.params(range), interval],
          ),
      this.db.query<Row>(
        `SELECT provider, sum(cost)::float8 AS cost
           FROM (SELECT provider, cost FROM ai_exchange_hours WHERE ${WHOLE('hour')}
                 UNION ALL
                 SELECT provider, cost FROM ai_exchanges WHERE ${EDGES}) x
          GROUP BY provider`,
        p,
      ),
      this.db.query<Row>(
        `SELECT username, sum(cost)::float8 AS cost
           FROM (SELECT username, cost FROM ai_exchange_user_hours WHERE ${WHOLE('hour')}
                 UNION ALL
                 SELECT username, cost FROM ai_exchanges WHERE ${EDGES}) x
          GROUP BY username ORDER BY cost DESC, username LIMIT $6`,
        [...p, userLimit],
      ),
    ]);
    return {
      costOverTime: overTime.map((r) => ({ time: new Date(r.time!).toISOString(), cost: num(r.cost) })),
      costByProvider: Object.fromEntries(byProvider.map((r) => [String(r.provider), num(r.cost)])),
      costByUser: byUser.map((r) => ({ username: String(r.username), cost: num(r.cost) })),
    };
  }

  async conversations(range: StatsRange, windowSize: string) {
    const interval = windowInterval(windowSize);
    const p = this.params(range);
    const [totals, overTime] = await Promise.all([
      // Distinct ids by grouping first (a hash aggregate) rather than count(DISTINCT), which sorts.
      this.db.query<Row>(
        `SELECT sum(n)::int AS exchanges, count(conversation_id)::int AS conversations
           FROM (SELECT conversation_id, count(*) AS n FROM ai_exchanges WHERE ${IN_RANGE}
                  GROUP BY conversation_id) x`,
        p,
      ),
      this.db.query<Row>(
        `SELECT date_bin($4::interval, occurred_at, ${ORIGIN}) AS time, count(*)::int AS exchanges,
                count(DISTINCT conversation_id)::int AS conversations
           FROM ai_exchanges WHERE ${IN_RANGE} GROUP BY 1 ORDER BY 1`,
        [...p, interval],
      ),
    ]);
    return {
      totalExchanges: num(totals[0]?.exchanges),
      totalConversations: num(totals[0]?.conversations),
      overTime: overTime.map((r) => ({
        time: new Date(r.time!).toISOString(),
        exchanges: num(r.exchanges),
        conversations: num(r.conversations),
      })),
    };
  }

  async userExchanges(range: StatsRange, username: string, limit: number): Promise<Exchange[]> {
    const rows = await this.db.query<Row & { metadata: Record<string, unknown> | null; success: boolean }>(
      `SELECT id, occurred_at, user_id, username, company_id, provider, model, input_tokens, output_tokens,
              total_tokens, cost::float8 AS cost, latency_ms, conversation_id, metadata, success
         FROM ai_exchanges WHERE ${IN_RANGE} AND username = $4
        ORDER BY occurred_at DESC, id DESC LIMIT $5`,
      [...this.params(range), username, limit],
    );
    return rows.map((r) => ({
      id: String(r.id),
      occurredAt: new Date(r.occurred_at!).toISOString(),
      userId: r.user_id === null ? null : num(r.user_id),
      username: String(r.username),
      companyId: r.company_id === null ? null : num(r.company_id),
      provider: String(r.provider),
      model: String(r.model),
      inputTokens: num(r.input_tokens),
      outputTokens: num(r.output_tokens),
      totalTokens: num(r.total_tokens),
      estimatedCost: num(r.cost),
      latencyMs: num(r.latency_ms),
      conversationId: r.conversation_id === null ? null : String(r.conversation_id),
      metadata: r.metadata,
      success: r.success,
    }));
  }
}
