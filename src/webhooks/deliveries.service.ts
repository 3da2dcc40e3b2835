import { Injectable } from '@nestjs/common';
import { AuditWriter } from '../audit-trail/audit-writer';
import { AppError } from '../common/errors/app-error';
import { tenantContext } from '../tenancy/tenant-context';
import { TenantDatabase } from '../tenancy/tenant-database';
import { DeliveriesRepository, DeliveryRow } from './deliveries.repository';
import { DeliveryAttempts } from './delivery-attempts';
import { DeliveryDto } from './dto/delivery.dto';
import { buildPing } from './webhook-payload';
import { WebhookMetrics } from './webhook-metrics';
import { WebhookQueue } from './webhook-queue';
import { WebhooksService } from './webhooks.service';

const toView = (r: DeliveryRow): DeliveryDto => ({
  id: Number(r.id),
  webhookId: r.webhook_id,
  eventType: r.event_type,
  eventId: r.event_id,
  status: r.status,
  attemptCount: r.attempt_count,
  maxAttempts: r.max_attempts,
  responseStatus: r.response_status,
  errorMessage: r.error_message,
  durationMs: r.duration_ms,
  nextAttemptAt: r.next_attempt_at,
  completedAt: r.completed_at,
  createdAt: r.created_at,
});

/** Delivery history, manual retry and the test ping. */
@Injectable()
export class DeliveriesService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly webhooks: WebhooksService,
    private readonly attempts: DeliveryAttempts,
    private readonly queue: WebhookQueue,
    private readonly metrics: WebhookMetrics,
    private readonly audit: AuditWriter,
    private readonly deliveries: DeliveriesRepository,
  ) {}

  async list(webhookId: number, limit: number) {
    const rows = await this.db.run(async (m) => {
      await this.webhooks.find(m, webhookId);
      return this.deliveries.listOf(m, webhookId, limit);
    });
    return { data: rows.map(toView) };
  }

  async get(id: number) {
    return { data: toView(await this.find(id)) };
  }

  /** A FAILED delivery gets one more attempt, queued now. */
  async retry(id: number) {
    const row = await this.db.transaction(async (m) => {
      const updated = await this.deliveries.retry(m, id);
      if (!updated) {
        const current = await this.find(id);
        throw AppError.conflict(`Only FAILED deliveries can be retried; this one is ${current.status}`);
      }
      await this.audit.record(m, {
        action: 'UPDATE',
        entityType: 'WebhookDelivery',
        entityId: id,
        message: `Delivery ${id} of webhook ${updated.webhook_id} queued for a manual retry`,
        metadata: { event: 'WEBHOOK_DELIVERY_RETRIED', webhookId: updated.webhook_id },
      });
      return updated;
    });
    this.metrics.deliveries.inc({ status: 'PENDING' });
    await this.queue.enqueue([{ id, webhookId: row.webhook_id }]);
    return { data: toView(row) };
  }

  /** Sends the test ping now (one attempt, not counted as a failure of the webhook) and answers its record. */
  async ping(webhookId: number) {
    const client = tenantContext.get().client;
    const id = await this.db.transaction(async (m) => {
      const hook = await this.webhooks.find(m, webhookId);
      const payload = buildPing(webhookId, hook.name, client.identifier);
      return this.deliveries.insertPing(m, webhookId, payload.eventId, JSON.stringify(payload));
    });
    this.metrics.deliveries.inc({ status: 'PENDING' });
    await this.attempts.run(id, { bypassLimit: true });
    return this.get(id);
  }

  private async find(id: number): Promise<DeliveryRow> {
    const row = await this.deliveries.find(id);
    if (!row) throw AppError.notFound('Delivery');
    return row;
  }
}
