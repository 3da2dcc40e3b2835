/** One logged chat exchange: who, which provider and model, tokens, cost, latency; never the text. */
export interface Exchange {
  /** Generated when the chat ends, so a write repeated after a failure stores the row once. */
  id: string;
  occurredAt: string;
  userId: number | null;
  /** The user's username, else the e-mail. */
  username: string;
  companyId: number | null;
  /** Upper-case provider code. */
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  estimatedCost: number;
  latencyMs: number;
  conversationId: string | null;
  metadata: Record<string, unknown> | null;
  success: boolean;
}

/** The time range and company reach of a statistics query. */
export interface StatsRange {
  start: Date;
  end: Date;
  /** null: every company (ADMIN and above). */
  companyId: number | null;
}

export interface CountTokens {
  count: number;
  totalTokens: number;
}

/** Where exchanges are written and statistics computed (PostgreSQL by default, InfluxDB by setting). */
export interface ExchangeStore {
  write(exchanges: Exchange[]): Promise<void>;
  stats(range: StatsRange): Promise<{
    statsByProvider: Record<string, CountTokens>;
    statsByModel: Record<string, CountTokens>;
    latencyByModel: Record<string, { avgMs: number; p95Ms: number }>;
  }>;
  costs(
    range: StatsRange,
    /** `<n>m`, `<n>h` or `<n>d`; buckets start at UTC boundaries. */
    windowSize: string,
    userLimit: number,
  ): Promise<{
    costOverTime: { time: string; cost: number }[];
    costByProvider: Record<string, number>;
    costByUser: { username: string; cost: number }[];
  }>;
  conversations(
    range: StatsRange,
    windowSize: string,
  ): Promise<{
    totalExchanges: number;
    totalConversations: number;
    overTime: { time: string; exchanges: number; conversations: number }[];
  }>;
  userExchanges(range: StatsRange, username: string, limit: number): Promise<Exchange[]>;
}

export const EXCHANGE_STORE = Symbol('EXCHANGE_STORE');
