import { Injectable } from '@nestjs/common';
import { WebhookSettings } from './webhook.settings';

/**
 * Caps the requests in flight to one webhook in this process, so a slow or dead receiver holds at
 * most WEBHOOK_ENDPOINT_CONCURRENCY worker slots and the others keep serving healthy receivers.
 */
@Injectable()
export class EndpointLimiter {
  private readonly inFlight = new Map<number, number>();

  constructor(private readonly settings: WebhookSettings) {}

  tryAcquire(webhookId: number): boolean {
    const n = this.inFlight.get(webhookId) ?? 0;
    if (n >= this.settings.WEBHOOK_ENDPOINT_CONCURRENCY) return false;
    this.inFlight.set(webhookId, n + 1);
    return true;
  }

  release(webhookId: number) {
    const n = (this.inFlight.get(webhookId) ?? 1) - 1;
    if (n <= 0) this.inFlight.delete(webhookId);
    else this.inFlight.set(webhookId, n);
  }
}
