import { Injectable } from '@nestjs/common';
import { tenantContext } from '../tenancy/tenant-context';
import { WebhookSettings } from './webhook.settings';

/**
 * Caps the requests in flight to one webhook in this process, so a slow or dead receiver holds at
 * most WEBHOOK_ENDPOINT_CONCURRENCY worker slots and the others keep serving healthy receivers.
 * Webhook ids are numbered per client database, so the cap is kept per client and webhook.
 */
@Injectable()
export class EndpointLimiter {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly settings: WebhookSettings) {}

  tryAcquire(webhookId: number): boolean {
    const key = endpointKey(webhookId);
    const n = this.inFlight.get(key) ?? 0;
    if (n >= this.settings.WEBHOOK_ENDPOINT_CONCURRENCY) return false;
    this.inFlight.set(key, n + 1);
    return true;
  }

  release(webhookId: number) {
    const key = endpointKey(webhookId);
    const n = (this.inFlight.get(key) ?? 1) - 1;
    if (n <= 0) this.inFlight.delete(key);
    else this.inFlight.set(key, n);
  }
}

const endpointKey = (webhookId: number) => `${tenantContext.get().client.identifier}:${webhookId}`;
