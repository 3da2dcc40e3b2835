import { Injectable } from '@nestjs/common';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { windowInterval } from '../dto/stats.dto';
import { CountTokens, Exchange, ExchangeStore, StatsRange } from './exchange';

/** Buckets start at UTC boundaries: date_bin counts from this origin. */
const ORIGIN = `TIMESTAMPTZ '2000-01-01 00:00:00+00'`;
const IN_RANGE = `occurred_at >= $1 AND occurred_at < $2 AND ($3::int IS NULL OR company_id = $3)`;

type Row = Record<string, string | number | null>;

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

/**
 * The conversation log in the client database (`ai_exchanges`, in the schema of the request). Every
 * figure is computed by PostgreSQL (sums, percentile_cont, date_bin); Node only reshapes the rows.
 */
@Injectable()
export class PostgresExchangeStore implements ExchangeStore {
  constructor(private readonly db: TenantDatabase) {}

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
    await this.db.transaction((m) =>
      m.query(
        `INSERT INTO ai_exchanges (id, occurred_at, user_id, username, company_id, provider, model,
           input_tokens, output_tokens, total_tokens, cost, latency_ms, conversation_id, metadata, success)
         VALUES ${rows.join(', ')} ON CONFLICT (id) DO NOTHING`,
        values,
      ),
    );
  }

  private params(range: StatsRange): unknown[] {
    return [range.start, range.end, range.companyId];
  }

  async stats(range: StatsRange) {
    const [byProvider, byModel] = await Promise.all([
      this.db.query<Row>(
        `SELECT provider, count(*)::int AS count, coalesce(sum(total_tokens), 0)::bigint AS tokens
           FROM ai_exchanges WHERE ${IN_RANGE} GROUP BY provider`,
        this.params(range),
      ),
      this.db.query<Row>(
        `SELECT model, count(*)::int AS count, coalesce(sum(total_tokens), 0)::bigint AS tokens,
                avg(latency_ms)::float8 AS avg_ms,
                percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms)::float8 AS p95_ms
           FROM ai_exchanges WHERE ${IN_RANGE} GROUP BY model`,
        this.params(range),
      ),
    ]);
    const counts = (rows: Row[], key: string) =>
      Object.fromEntries(
        rows.map((r): [string, CountTokens] => [
          String(r[key]),
          { count: num(r.count), totalTokens: num(r.tokens) },
        ]),
      );
    return {
      statsByProvider: counts(byProvider, 'provider'),
      statsByModel: counts(byModel, 'model'),
      latencyByModel: Object.fromEntries(
        byModel.map((r) => [String(r.model), { avgMs: num(r.avg_ms), p95Ms: num(r.p95_ms) }]),
      ),
    };
  }

  async costs(range: StatsRange, windowSize: string, userLimit: number) {
    const interval = windowInterval(windowSize);
    const p = this.params(range);
    const [overTime, byProvider, byUser] = await Promise.all([
      this.db.query<Row>(
        `SELECT date_bin($4::interval, occurred_at, ${ORIGIN}) AS time, sum(cost)::float8 AS cost
           FROM ai_exchanges WHERE ${IN_RANGE} GROUP BY 1 ORDER BY 1`,
        [...p, interval],
      ),
      this.db.query<Row>(
        `SELECT provider, sum(cost)::float8 AS cost FROM ai_exchanges WHERE ${IN_RANGE} GROUP BY provider`,
        p,
      ),
      this.db.query<Row>(
        `SELECT username, sum(cost)::float8 AS cost FROM ai_exchanges WHERE ${IN_RANGE}
           GROUP BY username ORDER BY cost DESC, username LIMIT $4`,
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
      this.db.query<Row>(
        `SELECT count(*)::int AS exchanges, count(DISTINCT conversation_id)::int AS conversations
           FROM ai_exchanges WHERE ${IN_RANGE}`,
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
