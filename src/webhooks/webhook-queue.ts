import { Injectable } from '@nestjs/common';
import type { Job } from 'bull';
import { AppConfig } from '../config/app-config';
import { PRODUCTION_SCHEMA, TenantClient } from '../tenancy/tenant-context';
import { JobTenant, TenantJob } from '../tenancy/tenant-jobs';
import { TenantQueue } from '../tenancy/tenant-queue';
import { WebhookSettings } from './webhook.settings';

export const WEBHOOK_QUEUE = 'webhook-deliveries';

export interface DeliveryJob {
  deliveryId: number;
  webhookId: number;
}

export interface QueuedDelivery {
  id: number;
  webhookId: number;
}

/**
 * The queue of deliveries: one job per delivery of a client (delivery records live in the client
 * database's `public` schema), so adding the same delivery again while it is queued does nothing.
 * Retries reuse the job, after the delay the processor throws as RetryLater.
 */
@Injectable()
export class WebhookQueue extends TenantQueue<DeliveryJob> {
  constructor(config: AppConfig, settings: WebhookSettings) {
    super(config, {
      name: WEBHOOK_QUEUE,
      dedup: { key: (job) => job.deliveryId, per: 'client' },
      attempts: Number.MAX_SAFE_INTEGER,
      backoff: { retryLater: 'webhook' },
      lockMs: settings.WEBHOOK_JOB_LOCK_MS,
    });
  }

  /** Queues deliveries of the current tenant's client. */
  enqueue(deliveries: QueuedDelivery[], delayMs = 0): Promise<void> {
    return this.add(
      deliveries.map(({ id, webhookId }) => ({ deliveryId: id, webhookId })),
      delayMs,
    );
  }

  /** Jobs queued before jobs carried their tenant (delayed retries survive a deploy) name only the client. */
  protected override tenantOf(job: Job<DeliveryJob & TenantJob>): JobTenant {
    const legacy = (job.data as { client?: TenantClient }).client;
    return (
      job.data.tenant ?? { client: legacy!, schema: PRODUCTION_SCHEMA, requestId: `job:webhook:${job.id}` }
    );
  }
}
