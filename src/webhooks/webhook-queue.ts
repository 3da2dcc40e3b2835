import { Injectable, OnModuleDestroy } from '@nestjs/common';
import Bull from 'bull';
import { AppConfig } from '../config/app-config';
import { tenantContext } from '../tenancy/tenant-context';
import { openJobQueue, TenantJob, tenantJobData } from '../tenancy/tenant-jobs';
import { WebhookSettings } from './webhook.settings';

export const WEBHOOK_QUEUE = 'webhook-deliveries';

export interface DeliveryJob extends TenantJob {
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
 * Jobs are queued for the client of the current tenant context, which the job carries to the worker.
 */
@Injectable()
export class WebhookQueue implements OnModuleDestroy {
  readonly queue: Bull.Queue<DeliveryJob>;

  constructor(config: AppConfig, settings: WebhookSettings) {
    this.queue = openJobQueue<DeliveryJob>(config, WEBHOOK_QUEUE, {
      lockDuration: settings.WEBHOOK_JOB_LOCK_MS,
      stalledInterval: settings.WEBHOOK_JOB_LOCK_MS,
      maxStalledCount: 100,
      backoffStrategies: {
        webhook: (_attempts: number, err: Error) => (err instanceof RetryLater ? err.delayMs : 1000),
      },
    });
  }

  async onModuleDestroy() {
    await this.queue.close().catch(() => undefined);
  }

  private jobId(clientIdentifier: string, deliveryId: number): string {
    return `${clientIdentifier}:${deliveryId}`;
  }

  async enqueue(deliveries: QueuedDelivery[], delayMs = 0): Promise<void> {
    if (!deliveries.length) return;
    const tenant = tenantJobData();
    await this.queue.addBulk(
      deliveries.map(({ id, webhookId }) => ({
        data: { tenant, deliveryId: id, webhookId },
        opts: {
          jobId: this.jobId(tenant.client.identifier, id),
          delay: delayMs,
          attempts: Number.MAX_SAFE_INTEGER,
          backoff: { type: 'webhook' },
          removeOnComplete: true,
          removeOnFail: true,
        },
      })),
    );
  }

  /** True when the current client's delivery has a job waiting, delayed or running. */
  async isLive(deliveryId: number): Promise<boolean> {
    const job = await this.queue.getJob(this.jobId(tenantContext.get().client.identifier, deliveryId));
    return !!job && LIVE_STATES.has(await job.getState());
  }
}
