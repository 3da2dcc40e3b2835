import { Injectable } from '@nestjs/common';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { AiSettings } from '../ai.settings';
import { windowInterval, windowMinutes } from '../dto/stats.dto';
import { Exchange, StatsRange } from './exchange';
import { AiExchangesRepository } from './ai-exchanges.repository';
import {
  ConversationFigures,
  CostFigures,
  ExchangeBackend,
  StoredExchange,
  UsageFigures,
} from './exchange-log';

/**
 * The conversation log in the client database (AiExchangesRepository). Counts, tokens, costs and
 * averages come from the rollups (daily ones for the whole days of a range, hourly ones for its other
 * whole hours) and from the exchanges themselves for the parts of an hour at its edges, so they are
 * exact; see `exchange-rollups.ts`.
 */
@Injectable()
export class PostgresExchangeBackend implements ExchangeBackend {
  constructor(
    private readonly db: TenantDatabase,
    private readonly exchanges: AiExchangesRepository,
    private readonly settings: AiSettings,
  ) {}

  write(exchanges: Exchange[]): Promise<void> {
    // One statement (the rollups are in it): atomic alone, so no transaction around it in production.
    return this.db.run((m) => this.exchanges.insert(m, exchanges));
  }

  async usage(range: StatsRange): Promise<UsageFigures> {
    const [rows, p95] = await Promise.all([this.exchanges.usage(range), this.p95ByModel(range)]);
    const counted = (key: 'provider' | 'model') =>
      rows
        .filter((r) => r[key] !== null)
        .map((r) => ({ key: String(r[key]), count: r.count, tokens: r.tokens }));
    return {
      providers: counted('provider'),
      models: counted('model'),
      latency: rows
        .filter((r) => r.model !== null)
        .map((r) => ({ model: String(r.model), avgMs: r.avg_ms, p95Ms: p95.get(String(r.model)) })),
    };
  }

  /**
   * p95 latency per model: exact when the range holds at most AI_STATS_EXACT_PERCENTILE_LIMIT
   * exchanges (counted from the rollups), else read from the latency histograms (within 1 %).
   */
  private async p95ByModel(range: StatsRange): Promise<Map<string, number>> {
    const n = await this.exchanges.countIn(range);
    const rows =
      n <= this.settings.AI_STATS_EXACT_PERCENTILE_LIMIT
        ? await this.exchanges.exactP95(range)
        : await this.exchanges.histogramP95(range);
    return new Map(rows.map((r) => [String(r.model), Number(r.p95_ms ?? 0)]));
  }

  async costs(range: StatsRange, windowSize: string, userLimit: number): Promise<CostFigures> {
    const interval = windowInterval(windowSize);
    const [overTime, byProvider, byUser] = await Promise.all([
      // A window of whole hours is made of whole hourly rollups; a shorter or ragged one (15m, 90m) is
      // summed from the exchanges themselves.
      windowMinutes(windowSize) % 60 === 0
        ? this.exchanges.costOverHours(range, interval)
        : this.exchanges.costOverWindows(range, interval),
      this.exchanges.costByProvider(range),
      this.exchanges.costByUser(range, userLimit),
    ]);
    return {
      overTime,
      byProvider: byProvider.map((r) => ({ key: String(r.provider), cost: r.cost })),
      byUser: byUser.map((r) => ({ key: String(r.username), cost: r.cost })),
    };
  }

  async conversations(range: StatsRange, windowSize: string): Promise<ConversationFigures> {
    const interval = windowInterval(windowSize);
    const [totals, overTime] = await Promise.all([
      this.exchanges.conversationTotals(range),
      this.exchanges.conversationsOverTime(range, interval),
    ]);
    return { exchanges: totals?.exchanges, conversations: totals?.conversations, overTime };
  }

  userExchanges(range: StatsRange, username: string, limit: number): Promise<StoredExchange[]> {
    return this.exchanges.userExchanges(range, username, limit);
  }
}
