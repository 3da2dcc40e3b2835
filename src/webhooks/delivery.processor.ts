import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Job } from 'bull';
import { PRODUCTION_SCHEMA, tenantContext } from '../tenancy/tenant-context';
import { DeliveryAttempts } from './delivery-attempts';
import { DeliveryJob, RetryLater, WebhookQueue } from './webhook-queue';
import { WebhookSettings } from './webhook.settings';

/**
 * The Bull processor of deliveries (workers only): enters the tenant of the job and makes one
 * attempt; a failure with attempts left makes Bull run the same job again after the retry delay.
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
    const { client, deliveryId, webhookId } = job.data;
    const store = { requestId: `job:webhook:${job.id}`, client, schema: PRODUCTION_SCHEMA };
    const outcome = await tenantContext.run(store, () =>
      this.attempts.run(client, deliveryId, { webhookId }),
    );
    if (outcome.retryInMs !== undefined) throw new RetryLater(outcome.retryInMs);
  }
}
