import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SecretBox } from '../common/crypto/secret-box';
import { TenantDatabase } from '../tenancy/tenant-database';
import { DeliveriesRepository, DueDelivery } from './deliveries.repository';
import { DeliveryStore } from './delivery-store';
import { WebhooksRepository } from './webhooks.repository';
import { EndpointLimiter } from './endpoint-limiter';
import { signDelivery } from './webhook-signing';
import { SendResult, WebhookSender } from './webhook-sender';
import { WebhookMetrics } from './webhook-metrics';
import { WebhookSettings } from './webhook.settings';

/** What the caller does next: nothing, or run the delivery again after `retryInMs`. */
export interface AttemptOutcome {
  retryInMs?: number;
}

/** Delay before the retry that follows attempt `attempt` (1-based); the last delay repeats. */
export function retryDelay(delays: number[], attempt: number): number {
  return delays[Math.min(attempt - 1, delays.length - 1)];
}

/**
 * One attempt of one delivery: reads the delivery and its webhook, sends the signed request and
 * records the outcome (attemptCount, responseStatus, errorMessage, durationMs, status), counting
 * consecutive failures and auto-disabling the webhook when they reach autoDisableAfterFailures.
 */
@Injectable()
export class DeliveryAttempts {
  private readonly logger = new Logger(DeliveryAttempts.name);
  private readonly secretCache = new Map<string, string>();

  constructor(
    private readonly db: TenantDatabase,
    private readonly sender: WebhookSender,
    private readonly secrets: SecretBox,
    private readonly limiter: EndpointLimiter,
    private readonly settings: WebhookSettings,
    private readonly metrics: WebhookMetrics,
    private readonly store: DeliveryStore,
    private readonly deliveries: DeliveriesRepository,
    private readonly webhooks: WebhooksRepository,
  ) {}

  /**
   * One attempt of a delivery of the current tenant's client.
   * @param options.webhookId the delivery's webhook (from the job), so the per-endpoint cap is
   *   applied before any query; `bypassLimit` for the synchronous test ping.
   */
  async run(
    deliveryId: number,
    options: { webhookId?: number; bypassLimit?: boolean } = {},
  ): Promise<AttemptOutcome> {
    const ds = await this.db.dataSource();
    const limited = !options.bypassLimit && options.webhookId !== undefined;
    if (limited && !this.limiter.tryAcquire(options.webhookId!)) {
      return { retryInMs: 100 + Math.floor(Math.random() * 200) };
    }
    let d: DueDelivery | null;
    let result: SendResult;
    try {
      d = await this.store.due(deliveryId);
      if (!d) {
        await this.settleDisabled(ds.manager, deliveryId);
        return {};
      }
      result = await this.attempt(d);
    } finally {
      if (limited) this.limiter.release(options.webhookId!);
    }
    this.metrics.attemptDuration.observe(
      { outcome: result.ok ? 'success' : 'failure' },
      result.durationMs / 1000,
    );
    return this.record(ds.manager, d, result);
  }

  /** A delivery whose webhook was disabled meanwhile ends FAILED (a manual retry can revive it). */
  private async settleDisabled(m: EntityManager, deliveryId: number) {
    if (await this.deliveries.failDisabled(m, deliveryId)) this.metrics.deliveries.inc({ status: 'FAILED' });
  }

  /** Decrypted secrets by sealed value (a regenerated secret is a new key), bounded. */
  private secretOf(sealed: string): string {
    let secret = this.secretCache.get(sealed);
    if (secret === undefined) {
      if (this.secretCache.size >= 1000) this.secretCache.clear();
      secret = this.secrets.decrypt(sealed);
      this.secretCache.set(sealed, secret);
    }
    return secret;
  }

  /**
   * Sends one attempt; a failure before or during sending (a stored header HTTP refuses, an
   * undecryptable secret) is a failed attempt like any other, so it follows the retry rules.
   */
  private async attempt(d: DueDelivery): Promise<SendResult> {
    const started = Date.now();
    try {
      return await this.send(d);
    } catch (err) {
      this.logger.warn(`Delivery ${d.id} could not be sent: ${(err as Error).message}`);
      return {
        ok: false,
        status: null,
        error: `Request could not be sent: ${(err as Error).message}`,
        durationMs: Date.now() - started,
      };
    }
  }

  private send(d: DueDelivery): Promise<SendResult> {
    const secret = this.secretOf(d.secret_encrypted);
    const signed = signDelivery(secret, d.event_id, d.payload);
    return this.sender.send({
      url: d.url,
      method: d.http_method,
      timeoutMs: d.timeout_ms,
      verifySsl: d.verify_ssl,
      body: d.payload,
      headers: {
        ...d.custom_headers,
        'Content-Type': d.content_type,
        'User-Agent': 'SVC-Webhooks/1.0',
        'X-SVC-Event': d.event_type,
        'X-SVC-Delivery': String(d.id),
        ...signed,
      },
    });
  }

  private async record(m: EntityManager, d: DueDelivery, result: SendResult): Promise<AttemptOutcome> {
    const attempt = d.attempt_count;
    if (result.ok) {
      await this.store.succeeded({ id: d.id, status: result.status, durationMs: result.durationMs });
      this.metrics.deliveries.inc({ status: 'SUCCESS' });
      const recent = d.last_delivery_at && Date.now() - new Date(d.last_delivery_at).getTime() < 5000;
      if (!d.is_test && (d.consecutive_failures > 0 || !recent)) {
        await this.webhooks.markDelivered(m, d.webhook_id);
      }
      return {};
    }
    let active = true;
    if (!d.is_test) {
      const stillActive = await this.webhooks.countFailure(m, d.webhook_id);
      active = stillActive ?? false;
      if (stillActive === false)
        this.logger.warn(`Webhook ${d.webhook_id} disabled after consecutive failures`);
    }
    if (attempt < d.max_attempts && active) {
      const delay = retryDelay(this.settings.WEBHOOK_RETRY_DELAYS_MS, attempt);
      await this.deliveries.retrying(m, d.id, result, delay);
      this.metrics.deliveries.inc({ status: 'RETRYING' });
      return { retryInMs: delay };
    }
    const error = active ? result.error : `${result.error}; webhook is disabled`;
    await this.fail(m, d.id, { ...result, error });
    return {};
  }

  private async fail(m: EntityManager, id: string, r: SendResult) {
    await this.deliveries.failed(m, id, r);
    this.metrics.deliveries.inc({ status: 'FAILED' });
  }
}
