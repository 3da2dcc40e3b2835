import { Injectable, OnModuleDestroy } from '@nestjs/common';
import Bull from 'bull';
import { AppConfig } from '../config/app-config';
import { TenantClient } from '../tenancy/tenant-context';
import { WebhookSettings } from './webhook.settings';

export const WEBHOOK_QUEUE = 'webhook-deliveries';

export interface DeliveryJob {
  client: TenantClient;
  deliveryId: number;
  webhookId: number;
}

export interface QueuedDelivery {
  id: number;
  webhookId: number;
}

/** Thrown by the processor to have Bull run the job again after `delayMs`. */
export class RetryLater extends Error {
  constructor(readonly delayMs: number) {
    super(`retry in ${delayMs} ms`);
  }
}

const LIVE_STATES = new Set(['waiting', 'active', 'delayed', 'paused']);

/**
 * The Bull queue of deliveries: one job per delivery, its id `<client>:<delivery id>`, so adding the
 * same delivery again while it is queued does nothing. Retries reuse the job (custom backoff).
 */
@Injectable()
export class WebhookQueue implements OnModuleDestroy {
  readonly queue: Bull.Queue<DeliveryJob>;

  constructor(config: AppConfig, settings: WebhookSettings) {
    this.queue = new Bull<DeliveryJob>(WEBHOOK_QUEUE, config.REDIS_URL, {
      prefix: `${config.REDIS_PREFIX}:bull`,
      settings: {
        lockDuration: settings.WEBHOOK_JOB_LOCK_MS,
        stalledInterval: settings.WEBHOOK_JOB_LOCK_MS,
        maxStalledCount: 100,
        backoffStrategies: {
          webhook: (_attempts: number, err: Error) => (err instanceof RetryLater ? err.delayMs : 1000),
        },
      },
    });
    this.queue.on('error', () => undefined);
  }

  async onModuleDestroy() {
    await this.queue.close().catch(() => undefined);
  }

  jobId(client: TenantClient, deliveryId: number): string {
    return `${client.identifier}:${deliveryId}`;
  }

  async enqueue(client: TenantClient, deliveries: QueuedDelivery[], delayMs = 0): Promise<void> {
    if (!deliveries.length) return;
    await this.queue.addBulk(
      deliveries.map(({ id, webhookId }) => ({
        data: { client, deliveryId: id, webhookId },
        opts: {
          jobId: this.jobId(client, id),
          delay: delayMs,
          attempts: Number.MAX_SAFE_INTEGER,
          backoff: { type: 'webhook' },
          removeOnComplete: true,
          removeOnFail: true,
        },
      })),
    );
  }

  /** True when the delivery has a job waiting, delayed or running. */
  async isLive(client: TenantClient, deliveryId: number): Promise<boolean> {
    const job = await this.queue.getJob(this.jobId(client, deliveryId));
    return !!job && LIVE_STATES.has(await job.getState());
  }
}
