import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { MetricsService } from '../observability/metrics/metrics.service';
import { AiProviders } from './ai-providers';
import { AiSettings } from './ai.settings';
import { ExchangeQueue } from './log/exchange-queue';
import { modelLabels } from './model-labels';
import { priceTable } from './prices';

/** Chat metrics in the app's registry; `model` is a configured or priced model, else `other`. */
@Injectable()
export class AiMetrics {
  readonly requests: Counter<'provider' | 'model' | 'status'>;
  readonly tokens: Counter<'provider' | 'model' | 'direction'>;
  readonly duration: Histogram<'provider' | 'model'>;
  readonly cost: Counter<'provider' | 'model'>;
  readonly overhead: Histogram<'provider'>;
  private readonly modelLabel: (model: string) => string;

  constructor(metrics: MetricsService, queue: ExchangeQueue, settings: AiSettings, providers: AiProviders) {
    this.modelLabel = modelLabels(priceTable(settings.AI_MODEL_PRICES), providers.list());
    const registers = [metrics.registry];
    this.requests = new Counter({
      name: 'ai_requests_total',
      help: 'AI chats by provider, model and outcome (success, error)',
      labelNames: ['provider', 'model', 'status'],
      registers,
    });
    this.tokens = new Counter({
      name: 'ai_tokens_total',
      help: 'Tokens the vendors reported, by direction (input, output)',
      labelNames: ['provider', 'model', 'direction'],
      registers,
    });
    this.duration = new Histogram({
      name: 'ai_request_duration_seconds',
      help: 'Duration of AI chats, retries included',
      labelNames: ['provider', 'model'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    });
    this.cost = new Counter({
      name: 'ai_cost_usd_total',
      help: 'Estimated cost of AI chats in USD (price table)',
      labelNames: ['provider', 'model'],
      registers,
    });
    this.overhead = new Histogram({
      name: 'ai_gateway_overhead_seconds',
      help: 'Time a chat spent in the gateway outside the vendor call (auth, checks, rate, cost, log hand-off)',
      labelNames: ['provider'],
      buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    });
    new Gauge({
      name: 'ai_log_backlog',
      help: 'Logged exchanges queued in Redis and not yet written to the log store',
      registers,
      async collect() {
        const backlog = await queue.backlog().catch(() => null);
        if (backlog !== null) this.set(backlog);
      },
    });
  }

  record(e: {
    provider: string;
    model: string;
    success: boolean;
    inputTokens: number;
    outputTokens: number;
    latencyMs: number;
    cost: number;
  }) {
    const labels = { provider: e.provider, model: this.modelLabel(e.model) };
    this.requests.inc({ ...labels, status: e.success ? 'success' : 'error' });
    this.duration.observe(labels, e.latencyMs / 1000);
    if (!e.success) return;
    this.tokens.inc({ ...labels, direction: 'input' }, e.inputTokens);
    this.tokens.inc({ ...labels, direction: 'output' }, e.outputTokens);
    this.cost.inc(labels, e.cost);
  }
}
