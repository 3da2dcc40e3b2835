import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { companyCondition } from '../../access/company-rule';
import { SqlExample } from '../../database/sql-example';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { Exchange, StatsRange } from './exchange';
import { StoredExchange } from './exchange-log';
import {
  latencyBucket,
  latencyOfBucket,
  ORIGIN,
  ROLLUP_COLUMNS,
  rollupBounds,
  withRollups,
} from './exchange-rollups';

const IN_REACH = companyCondition('company_id', 3);
const IN_RANGE = `occurred_at >= $1 AND occurred_at < $2 AND ${IN_REACH}`;
/** The whole hours [$4, $5) come from a rollup; the rest of the range, at its two edges, from raw rows. */
const WHOLE = (column: string) => `${column} >= $4 AND ${column} < $5 AND ${IN_REACH}`;
/** The whole days [$6, $7) inside the whole hours. */
const WHOLE_DAYS = `day >= $6 AND day < $7 AND ${IN_REACH}`;
/** The whole hours outside the whole days [$6, $7). */
const HOURS_BESIDE_DAYS = `((hour >= $4 AND hour < $6) OR (hour >= $7 AND hour < $5)) AND ${IN_REACH}`;
const EDGES = `((occurred_at >= $1 AND occurred_at < $4) OR (occurred_at >= $5 AND occurred_at < $2)) AND ${IN_REACH}`;

export interface UsageRow {
  provider: string | null;
  model: string | null;
  count: string;
  tokens: string;
  avg_ms: number;
}

export interface ModelP95Row {
  model: string;
  p95_ms: number;
}

export interface TimeCostRow {
  time: Date;
  cost: number;
}

export interface ProviderCostRow {
  provider: string;
  cost: number;
}

export interface UserCostRow {
  username: string;
  cost: number;
}

export interface ConversationTotalsRow {
  exchanges: number | null;
  conversations: number;
}

export interface ConversationWindowRow {
  time: Date;
  exchanges: number;
  conversations: number;
}

export interface ExchangeRow extends StoredExchange {
  id: string;
  occurred_at: Date;
  user_id: number | null;
  username: string;
  company_id: number | null;
  provider: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  cost: number;
  latency_ms: number;
  conversation_id: string | null;
}

/** The range and its company. */
const params = (range: StatsRange): unknown[] => [range.start, range.end, range.companyId];
/** $1 to $7: the range and its company, its whole hours, and the whole days inside those. */
const bounds = (range: StatsRange): unknown[] => [...params(range), ...rollupBounds(range)];

const RANGE: StatsRange = {
  start: new Date('2026-01-01T10:30:00.000Z'),
  end: new Date('2026-01-09T16:45:00.000Z'),
  companyId: 2,
};

const EXCHANGE: Exchange = {
  id: '0b6c5f7e-3f0a-4c41-9d53-5f2b0c9e7a11',
  occurredAt: '2026-01-02T09:15:00.000Z',
  userId: 3,
  username: 'ada',
  companyId: 2,
  provider: 'OPENAI',
  model: 'gpt-4o-mini',
  inputTokens: 120,
  outputTokens: 80,
  totalTokens: 200,
  estimatedCost: 0.0004,
  latencyMs: 850,
  conversationId: 'c-1',
  metadata: null,
  success: true,
};

/**
 * The conversation log in the client database (`ai_exchanges` and its rollups, in the schema of
 * the request). Every figure is computed by PostgreSQL (sums, percentile_cont, date_bin).
 */
@Injectable()
export class AiExchangesRepository {
  constructor(private readonly db: TenantDatabase) {}

  /** Inserts the exchanges (an id already held is skipped) and adds them to the rollups. */
  @SqlExample((c) => [c.manager, [EXCHANGE]])
  async insert(m: EntityManager, exchanges: Exchange[]): Promise<void> {
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
    await m.query(
      withRollups(
        `INSERT INTO ai_exchanges (id, occurred_at, user_id, username, company_id, provider, model,
             input_tokens, output_tokens, total_tokens, cost, latency_ms, conversation_id, metadata, success)
           VALUES ${rows.join(', ')} ON CONFLICT (id) DO NOTHING RETURNING ${ROLLUP_COLUMNS}`,
      ),
      values,
    );
  }

  /** Exchanges and tokens per provider and per model, with the mean latency. */
  @SqlExample([RANGE])
  usage(range: StatsRange): Promise<UsageRow[]> {
    return this.db.query<UsageRow>(
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
      bounds(range),
    );
  }

  /** How many exchanges the range holds (from the rollups and the edges). */
  @SqlExample([RANGE])
  async countIn(range: StatsRange): Promise<number> {
    const [{ n }] = await this.db.query<{ n: string }>(
      `SELECT (SELECT coalesce(sum(exchanges), 0) FROM ai_exchange_days WHERE ${WHOLE_DAYS})
            + (SELECT coalesce(sum(exchanges), 0) FROM ai_exchange_hours WHERE ${HOURS_BESIDE_DAYS})
            + (SELECT count(*) FROM ai_exchanges WHERE ${EDGES}) AS n`,
      bounds(range),
    );
    return Number(n);
  }

  /** p95 latency per model by percentile_cont over the exchanges themselves. */
  @SqlExample([RANGE])
  exactP95(range: StatsRange): Promise<ModelP95Row[]> {
    return this.db.query<ModelP95Row>(
      `SELECT model, percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms)::float8 AS p95_ms
               FROM ai_exchanges WHERE ${IN_RANGE} GROUP BY model`,
      params(range),
    );
  }

  /**
   * p95 latency per model interpolated between the two ranks around the 95th, read from the daily
   * latency histogram for whole days, the hourly one for the other whole hours and the exchanges
   * themselves (bucketed alike) for the parts of an hour at the edges: within 1 % of the exact value.
   */
  @SqlExample([RANGE])
  histogramP95(range: StatsRange): Promise<ModelP95Row[]> {
    return this.db.query<ModelP95Row>(
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
      bounds(range),
    );
  }

  /** Cost per window of whole hours, from the hourly rollup and the edges. */
  @SqlExample([RANGE, '1440 minutes'])
  costOverHours(range: StatsRange, interval: string): Promise<TimeCostRow[]> {
    return this.db.query<TimeCostRow>(
      `SELECT date_bin($6::interval, at, ${ORIGIN}) AS time, sum(cost)::float8 AS cost
               FROM (SELECT hour AS at, cost FROM ai_exchange_hours WHERE ${WHOLE('hour')}
                     UNION ALL
                     SELECT occurred_at, cost FROM ai_exchanges WHERE ${EDGES}) x
              GROUP BY 1 ORDER BY 1`,
      [...bounds(range).slice(0, 5), interval],
    );
  }

  /** Cost per window of any size (15m, 90m), from the exchanges themselves. */
  @SqlExample([RANGE, '15 minutes'])
  costOverWindows(range: StatsRange, interval: string): Promise<TimeCostRow[]> {
    return this.db.query<TimeCostRow>(
      `SELECT date_bin($4::interval, occurred_at, ${ORIGIN}) AS time, sum(cost)::float8 AS cost
               FROM ai_exchanges WHERE ${IN_RANGE} GROUP BY 1 ORDER BY 1`,
      [...params(range), interval],
    );
  }

  @SqlExample([RANGE])
  costByProvider(range: StatsRange): Promise<ProviderCostRow[]> {
    return this.db.query<ProviderCostRow>(
      `SELECT provider, sum(cost)::float8 AS cost
           FROM (SELECT provider, cost FROM ai_exchange_hours WHERE ${WHOLE('hour')}
                 UNION ALL
                 SELECT provider, cost FROM ai_exchanges WHERE ${EDGES}) x
          GROUP BY provider`,
      bounds(range).slice(0, 5),
    );
  }

  /** The users who cost most, at most `limit`. */
  @SqlExample([RANGE, 10])
  costByUser(range: StatsRange, limit: number): Promise<UserCostRow[]> {
    return this.db.query<UserCostRow>(
      `SELECT username, sum(cost)::float8 AS cost
           FROM (SELECT username, cost FROM ai_exchange_user_hours WHERE ${WHOLE('hour')}
                 UNION ALL
                 SELECT username, cost FROM ai_exchanges WHERE ${EDGES}) x
          GROUP BY username ORDER BY cost DESC, username LIMIT $6`,
      [...bounds(range).slice(0, 5), limit],
    );
  }

  @SqlExample([RANGE])
  async conversationTotals(range: StatsRange): Promise<ConversationTotalsRow | undefined> {
    // Distinct ids by grouping first (a hash aggregate) rather than count(DISTINCT), which sorts.
    const [totals] = await this.db.query<ConversationTotalsRow>(
      `SELECT sum(n)::int AS exchanges, count(conversation_id)::int AS conversations
           FROM (SELECT conversation_id, count(*) AS n FROM ai_exchanges WHERE ${IN_RANGE}
                  GROUP BY conversation_id) x`,
      params(range),
    );
    return totals;
  }

  @SqlExample([RANGE, '60 minutes'])
  conversationsOverTime(range: StatsRange, interval: string): Promise<ConversationWindowRow[]> {
    return this.db.query<ConversationWindowRow>(
      `SELECT date_bin($4::interval, occurred_at, ${ORIGIN}) AS time, count(*)::int AS exchanges,
                count(DISTINCT conversation_id)::int AS conversations
           FROM ai_exchanges WHERE ${IN_RANGE} GROUP BY 1 ORDER BY 1`,
      [...params(range), interval],
    );
  }

  /** One user's exchanges in the range, newest first. */
  @SqlExample([RANGE, 'ada', 50])
  userExchanges(range: StatsRange, username: string, limit: number): Promise<ExchangeRow[]> {
    return this.db.query<ExchangeRow>(
      `SELECT id, occurred_at, user_id, username, company_id, provider, model, input_tokens, output_tokens,
              total_tokens, cost::float8 AS cost, latency_ms, conversation_id, metadata, success
         FROM ai_exchanges WHERE ${IN_RANGE} AND username = $4
        ORDER BY occurred_at DESC, id DESC LIMIT $5`,
      [...params(range), username, limit],
    );
  }
}
