import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { MetricsService } from '../observability/metrics/metrics.service';
import { WebhookQueue } from './webhook-queue';

/** Delivery metrics in the app's registry: outcomes by status, attempt latency, queue depth. */
@Injectable()
export class WebhookMetrics {
  readonly deliveries: Counter<'status'>;
  readonly attemptDuration: Histogram<'outcome'>;

  constructor(metrics: MetricsService, queue: WebhookQueue) {
    const registers = [metrics.registry];
    this.deliveries = new Counter({
      name: 'webhook_deliveries_total',
      help: 'Webhook deliveries entering each status (PENDING, RETRYING, SUCCESS, FAILED)',
      labelNames: ['status'],
      registers,
    });
    this.attemptDuration = new Histogram({
      name: 'webhook_delivery_attempt_duration_seconds',
      help: 'Duration of webhook delivery attempts by outcome',
      labelNames: ['outcome'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    new Gauge({
      name: 'webhook_queue_jobs',
      help: 'Jobs of the webhook delivery queue by state',
      labelNames: ['state'],
      registers,
      async collect() {
        const counts = await queue.queue.getJobCounts().catch(() => null);
        if (!counts) return;
        for (const [state, n] of Object.entries(counts)) this.set({ state }, Number(n));
      },
    });
  }
}
