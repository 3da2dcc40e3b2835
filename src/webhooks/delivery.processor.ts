import { Injectable, OnModuleInit } from '@nestjs/common';
import { RetryLater } from '../tenancy/job-retries';
import { DeliveryAttempts } from './delivery-attempts';
import { DeliveryJob, WebhookQueue } from './webhook-queue';
import { WebhookSettings } from './webhook.settings';

/**
 * The processor of deliveries (workers only): makes one attempt in the tenant the job was queued
 * under; a failure with attempts left makes Bull run the same job again after the retry delay.
 */
@Injectable()
export class DeliveryProcessor implements OnModuleInit {
  constructor(
    private readonly queue: WebhookQueue,
    private readonly attempts: DeliveryAttempts,
    private readonly settings: WebhookSettings,
  ) {}

  onModuleInit() {
    this.queue.process(this.settings.WEBHOOK_WORKER_CONCURRENCY, (job) => this.handle(job));
  }

  async handle({ deliveryId, webhookId }: DeliveryJob): Promise<void> {
    const outcome = await this.attempts.run(deliveryId, { webhookId });
    if (outcome.retryInMs !== undefined) throw new RetryLater(outcome.retryInMs);
  }
}
