import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Job } from 'bull';
import { PRODUCTION_SCHEMA, TenantClient } from '../tenancy/tenant-context';
import { runAsTenant } from '../tenancy/tenant-jobs';
import { DeliveryAttempts } from './delivery-attempts';
import { DeliveryJob, RetryLater, WebhookQueue } from './webhook-queue';
import { WebhookSettings } from './webhook.settings';

/**
 * The Bull processor of deliveries (workers only): enters the tenant the job was queued under and
 * makes one attempt; a failure with attempts left makes Bull run the same job again after the
 * retry delay.
 */
@Injectable()
export class DeliveryProcessor implements OnModuleInit {
  constructor(
    private readonly queue: WebhookQueue,
    private readonly attempts: DeliveryAttempts,
    private readonly settings: WebhookSettings,
  ) {}

  onModuleInit() {
    void this.queue.queue.process(this.settings.WEBHOOK_WORKER_CONCURRENCY, (job) => this.handle(job));
  }

  async handle(job: Job<DeliveryJob>): Promise<void> {
    const { deliveryId, webhookId } = job.data;
    // Jobs queued before jobs carried their tenant (delayed retries survive a deploy) name only the client.
    const legacy = (job.data as { client?: TenantClient }).client;
    const tenant = job.data.tenant ?? {
      client: legacy!,
      schema: PRODUCTION_SCHEMA,
      requestId: `job:webhook:${job.id}`,
    };
    const outcome = await runAsTenant(tenant, () => this.attempts.run(deliveryId, { webhookId }));
    if (outcome.retryInMs !== undefined) throw new RetryLater(outcome.retryInMs);
  }
}
