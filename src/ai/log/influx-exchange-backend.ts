import { Injectable, Logger } from '@nestjs/common';
import {
  fluxDateTime,
  fluxDuration,
  fluxInteger,
  fluxString,
  InfluxDB,
  Point,
  QueryApi,
  setLogger,
  toFluxValue,
} from '@influxdata/influxdb-client';
import { StoresSettings } from '../../config/stores.settings';
import { OutboundHttp } from '../../outbound/outbound-http';
import { tenantContext } from '../../tenancy/tenant-context';
import { AiSettings } from '../ai.settings';
import { Exchange, StatsRange } from './exchange';
import {
  ConversationFigures,
  CostFigures,
  ExchangeBackend,
  StoredExchange,
  UsageFigures,
} from './exchange-log';

export const INFLUX_MEASUREMENT = 'ai_exchange';

type Row = Record<string, string | number | null>;

/**
 * The conversation log in InfluxDB 2 (`AI_LOG_STORE=influxdb`): one point per exchange in
 * measurement `ai_exchange`, tagged with the client and schema it belongs to (every query filters
 * on both), provider, model, username, company and success; the figures are fields. Writing the
 * same exchange twice lands on the same series and timestamp, so it is stored once. Statistics are
 * Flux queries: sums, counts, means and quantiles run in the store. It speaks HTTP to InfluxDB, not
 * SQL; ExchangeLog shapes what it reads.
 */
@Injectable()
export class InfluxExchangeBackend implements ExchangeBackend {
  private readonly influx: InfluxDB;
  private readonly org: string;
  private readonly bucket: string;

  constructor(stores: StoresSettings, settings: AiSettings, outbound: OutboundHttp) {
    const {
      AI_LOG_INFLUX_URL: url,
      AI_LOG_INFLUX_TOKEN: token,
      AI_LOG_INFLUX_ORG,
      AI_LOG_INFLUX_BUCKET,
    } = stores;
    if (!url || !AI_LOG_INFLUX_ORG || !AI_LOG_INFLUX_BUCKET) {
      throw new Error(
        'AI_LOG_STORE=influxdb needs AI_LOG_INFLUX_URL, AI_LOG_INFLUX_ORG and AI_LOG_INFLUX_BUCKET',
      );
    }
    const client = outbound.trusted();
    const agent = client.agentFor(client.check(url));
    const logger = new Logger('InfluxExchangeBackend');
    // The client logs failed writes itself; the queue retries them, so they are warnings here.
    setLogger({ error: (message) => logger.warn(message), warn: (message) => logger.warn(message) });
    this.influx = new InfluxDB({ url, token, timeout: settings.AI_TIMEOUT_MS, transportOptions: { agent } });
    this.org = AI_LOG_INFLUX_ORG;
    this.bucket = AI_LOG_INFLUX_BUCKET;
  }

  /** Tags that keep clients and schemas apart in the one bucket. */
  private tenant() {
    const { client, schema } = tenantContext.get();
    return { client: client.identifier, schema };
  }

  async write(exchanges: Exchange[]): Promise<void> {
    const { client, schema } = this.tenant();
    // The query-side retries belong to the queue: one attempt here, a failure fails the job.
    const api = this.influx.getWriteApi(this.org, this.bucket, 'ns', {
      maxRetries: 0,
      batchSize: exchanges.length + 1,
    });
    for (const e of exchanges) {
      const point = new Point(INFLUX_MEASUREMENT)
        .tag('client', client)
        .tag('schema', schema)
        .tag('provider', e.provider)
        .tag('model', e.model)
        .tag('username', e.username)
        .tag('company', e.companyId === null ? 'none' : String(e.companyId))
        .tag('success', String(e.success))
        .stringField('id', e.id)
        .intField('input_tokens', e.inputTokens)
        .intField('output_tokens', e.outputTokens)
        .intField('total_tokens', e.totalTokens)
        .floatField('cost', e.estimatedCost)
        .intField('latency_ms', e.latencyMs)
        .timestamp(nanoseconds(e));
      if (e.userId !== null) point.intField('user_id', e.userId);
      if (e.conversationId !== null) point.stringField('conversation_id', e.conversationId);
      if (e.metadata !== null) point.stringField('metadata', JSON.stringify(e.metadata));
      api.writePoint(point);
    }
    await api.close();
  }

  private queryApi(): QueryApi {
    return this.influx.getQueryApi(this.org);
  }

  /** The exchanges of the range, the tenant and (below ADMIN) the company, as a Flux pipeline. */
  private from(range: StatsRange, field?: string): string {
    const { client, schema } = this.tenant();
    const company =
      range.companyId === null ? '' : ` and r.company == ${lit(fluxString(String(range.companyId)))}`;
    const fieldFilter = field ? ` and r._field == ${lit(fluxString(field))}` : '';
    return (
      `from(bucket: ${lit(fluxString(this.bucket))})\n` +
      `  |> range(start: ${lit(fluxDateTime(range.start.toISOString()))}, stop: ${lit(fluxDateTime(range.end.toISOString()))})\n` +
      `  |> filter(fn: (r) => r._measurement == ${lit(fluxString(INFLUX_MEASUREMENT))} and r.client == ${lit(fluxString(client))}` +
      ` and r.schema == ${lit(fluxString(schema))}${company}${fieldFilter})\n`
    );
  }

  private rows(flux: string): Promise<Row[]> {
    return this.queryApi().collectRows<Row>(flux);
  }

  async usage(range: StatsRange): Promise<UsageFigures> {
    const tokens = this.from(range, 'total_tokens');
    const latency = this.from(range, 'latency_ms');
    const countAndSum = (by: string) =>
      `${tokens}  |> group(columns: [${lit(fluxString(by))}])\n` +
      `  |> reduce(identity: {count: 0, totalTokens: 0}, fn: (r, accumulator) => ({count: accumulator.count + 1, totalTokens: accumulator.totalTokens + r._value}))\n`;
    const [byProvider, byModel, avg, p95] = await Promise.all([
      this.rows(countAndSum('provider')),
      this.rows(countAndSum('model')),
      this.rows(`${latency}  |> group(columns: ["model"])\n  |> mean()\n`),
      this.rows(`${latency}  |> group(columns: ["model"])\n  |> quantile(q: 0.95, method: "exact_mean")\n`),
    ]);
    const counted = (rows: Row[], key: string) =>
      rows.map((r) => ({ key: String(r[key]), count: r.count, tokens: r.totalTokens }));
    const p95By = new Map(p95.map((r) => [String(r.model), Number(r._value || 0)]));
    return {
      providers: counted(byProvider, 'provider'),
      models: counted(byModel, 'model'),
      latency: avg.map((r) => ({
        model: String(r.model),
        avgMs: r._value,
        p95Ms: p95By.get(String(r.model)),
      })),
    };
  }

  async costs(range: StatsRange, windowSize: string, userLimit: number): Promise<CostFigures> {
    const cost = this.from(range, 'cost');
    const [overTime, byProvider, byUser] = await Promise.all([
      this.rows(
        `${cost}  |> group()\n  |> aggregateWindow(every: ${lit(fluxDuration(windowSize))}, fn: sum, timeSrc: "_start", createEmpty: false)\n`,
      ),
      this.rows(`${cost}  |> group(columns: ["provider"])\n  |> sum()\n`),
      this.rows(
        `${cost}  |> group(columns: ["username"])\n  |> sum()\n  |> group()\n` +
          `  |> sort(columns: ["_value"], desc: true)\n  |> limit(n: ${lit(fluxInteger(userLimit))})\n`,
      ),
    ]);
    return {
      overTime: overTime.map((r) => ({ time: String(r._time), cost: r._value })),
      byProvider: byProvider.map((r) => ({ key: String(r.provider), cost: r._value })),
      byUser: byUser.map((r) => ({ key: String(r.username), cost: r._value })),
    };
  }

  async conversations(range: StatsRange, windowSize: string): Promise<ConversationFigures> {
    const exchanges = this.from(range, 'latency_ms');
    const ids = this.from(range, 'conversation_id');
    const every = fluxDuration(windowSize);
    const [total, distinct, exchangesOverTime, conversationsOverTime] = await Promise.all([
      this.rows(`${exchanges}  |> group()\n  |> count()\n`),
      this.rows(`${ids}  |> group()\n  |> distinct()\n  |> count()\n`),
      this.rows(
        `${exchanges}  |> group()\n  |> aggregateWindow(every: ${lit(every)}, fn: count, timeSrc: "_start", createEmpty: false)\n`,
      ),
      this.rows(
        `${ids}  |> group()\n  |> window(every: ${lit(every)})\n  |> distinct()\n  |> count()\n` +
          `  |> duplicate(column: "_start", as: "_time")\n  |> group()\n`,
      ),
    ]);
    const conversationsAt = new Map(conversationsOverTime.map((r) => [iso(r._time), r._value]));
    return {
      exchanges: total[0]?._value,
      conversations: distinct[0]?._value,
      overTime: exchangesOverTime.map((r) => ({
        time: r._time,
        exchanges: r._value,
        conversations: conversationsAt.get(iso(r._time)),
      })),
    };
  }

  async userExchanges(range: StatsRange, username: string, limit: number): Promise<StoredExchange[]> {
    const rows = await this.rows(
      `${this.from(range)}  |> filter(fn: (r) => r.username == ${lit(fluxString(username))})\n` +
        `  |> pivot(rowKey: ["_time"], columnKey: ["_field"], valueColumn: "_value")\n  |> group()\n` +
        `  |> sort(columns: ["_time"], desc: true)\n  |> limit(n: ${lit(fluxInteger(limit))})\n`,
    );
    // The point's time and tags in the columns of a stored exchange.
    return rows.map((r) => ({
      ...(r as Omit<StoredExchange, 'metadata' | 'success'>),
      occurred_at: r._time,
      company_id: r.company === 'none' ? null : r.company,
      metadata: r.metadata ? (JSON.parse(String(r.metadata)) as Record<string, unknown>) : null,
      success: r.success === 'true',
    }));
  }
}

/** A Flux literal (escaped string, integer, duration, time). */
const lit = (value: unknown): string => toFluxValue(value);

const iso = (t: unknown) => new Date(String(t)).toISOString();

/**
 * The point's timestamp: the exchange's millisecond plus a sub-millisecond offset taken from its id,
 * so that two exchanges of one series in the same millisecond stay two points, and the same
 * exchange written twice stays one.
 */
function nanoseconds(e: Exchange): string {
  const offset = parseInt(e.id.replace(/-/g, '').slice(0, 8), 16) % 1_000_000;
  return (BigInt(Date.parse(e.occurredAt)) * 1_000_000n + BigInt(offset)).toString();
}
