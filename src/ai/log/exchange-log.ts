import { CountTokens, Exchange, ExchangeStore, StatsRange } from './exchange';

/** Tokens used per provider or model, and latency per model, as a backend reads them. */
export interface UsageFigures {
  providers: { key: string; count: unknown; tokens: unknown }[];
  models: { key: string; count: unknown; tokens: unknown }[];
  latency: { model: string; avgMs: unknown; p95Ms: number | undefined }[];
}

export interface CostFigures {
  overTime: { time: unknown; cost: unknown }[];
  byProvider: { key: string; cost: unknown }[];
  byUser: { key: string; cost: unknown }[];
}

export interface ConversationFigures {
  exchanges: unknown;
  conversations: unknown;
  overTime: { time: unknown; exchanges: unknown; conversations: unknown }[];
}

/** A value as a backend reads it: numbers may come as text. */
type Cell = string | number | null | undefined;

/**
 * An exchange as a backend reads it back, in the columns of `ai_exchanges`: numbers may come as
 * text, and an absent value as null or ''.
 */
export interface StoredExchange {
  id: Cell;
  occurred_at: Cell | Date;
  user_id: Cell;
  username: Cell;
  company_id: Cell;
  provider: Cell;
  model: Cell;
  input_tokens: Cell;
  output_tokens: Cell;
  total_tokens: Cell;
  cost: Cell;
  latency_ms: Cell;
  conversation_id: Cell;
  metadata: Record<string, unknown> | null;
  success: boolean;
}

/** What differs between the stores of the log: how exchanges are written and figures read. */
export interface ExchangeBackend {
  write(exchanges: Exchange[]): Promise<void>;
  usage(range: StatsRange): Promise<UsageFigures>;
  costs(range: StatsRange, windowSize: string, userLimit: number): Promise<CostFigures>;
  conversations(range: StatsRange, windowSize: string): Promise<ConversationFigures>;
  userExchanges(range: StatsRange, username: string, limit: number): Promise<StoredExchange[]>;
}

const absent = (v: unknown) => v === null || v === undefined || v === '';
const num = (v: unknown) => (absent(v) ? 0 : Number(v));
const iso = (t: unknown) => new Date(t as string | Date).toISOString();

/** The one reading of a stored exchange. */
export function toExchange(r: StoredExchange): Exchange {
  return {
    id: String(r.id),
    occurredAt: iso(r.occurred_at),
    userId: absent(r.user_id) ? null : num(r.user_id),
    username: String(r.username),
    companyId: absent(r.company_id) ? null : num(r.company_id),
    provider: String(r.provider),
    model: String(r.model),
    inputTokens: num(r.input_tokens),
    outputTokens: num(r.output_tokens),
    totalTokens: num(r.total_tokens),
    estimatedCost: num(r.cost),
    latencyMs: num(r.latency_ms),
    conversationId: absent(r.conversation_id) ? null : String(r.conversation_id),
    metadata: r.metadata,
    success: r.success,
  };
}

const countsOf = (rows: UsageFigures['providers']) =>
  Object.fromEntries(
    rows.map((r): [string, CountTokens] => [r.key, { count: num(r.count), totalTokens: num(r.tokens) }]),
  );

/**
 * The conversation log over its backend (PostgreSQL by default, InfluxDB by setting): the backend
 * writes and reads figures, this shapes them into the statistics the API answers.
 */
export class ExchangeLog implements ExchangeStore {
  constructor(private readonly backend: ExchangeBackend) {}

  write(exchanges: Exchange[]): Promise<void> {
    return exchanges.length ? this.backend.write(exchanges) : Promise.resolve();
  }

  async stats(range: StatsRange) {
    const usage = await this.backend.usage(range);
    return {
      statsByProvider: countsOf(usage.providers),
      statsByModel: countsOf(usage.models),
      latencyByModel: Object.fromEntries(
        usage.latency.map((r) => [r.model, { avgMs: num(r.avgMs), p95Ms: r.p95Ms ?? 0 }]),
      ),
    };
  }

  async costs(range: StatsRange, windowSize: string, userLimit: number) {
    const costs = await this.backend.costs(range, windowSize, userLimit);
    return {
      costOverTime: costs.overTime.map((r) => ({ time: iso(r.time), cost: num(r.cost) })),
      costByProvider: Object.fromEntries(costs.byProvider.map((r) => [r.key, num(r.cost)])),
      costByUser: costs.byUser.map((r) => ({ username: r.key, cost: num(r.cost) })),
    };
  }

  async conversations(range: StatsRange, windowSize: string) {
    const figures = await this.backend.conversations(range, windowSize);
    return {
      totalExchanges: num(figures.exchanges),
      totalConversations: num(figures.conversations),
      overTime: figures.overTime.map((r) => ({
        time: iso(r.time),
        exchanges: num(r.exchanges),
        conversations: num(r.conversations),
      })),
    };
  }

  async userExchanges(range: StatsRange, username: string, limit: number): Promise<Exchange[]> {
    return (await this.backend.userExchanges(range, username, limit)).map(toExchange);
  }
}
