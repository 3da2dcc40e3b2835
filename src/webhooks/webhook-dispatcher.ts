import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { OutboxEvent } from '../events/domain-event';
import { OutboxConsumer, OutboxRelay } from '../events/outbox-relay';
import { tenantContext } from '../tenancy/tenant-context';
import { DeliveryActivity } from './delivery-activity';
import { payloadAround } from './webhook-payload';
import { WebhookMetrics } from './webhook-metrics';
import { WebhookQueue } from './webhook-queue';

/**
 * Turns outbox events into deliveries: for each active webhook of the client database subscribed
 * to the code (or `*`), of the event's company or system-wide, a delivery row is created in the
 * relay's transaction, by one statement that matches the webhooks as it inserts; its job is enqueued
 * after commit (job id `<client>:<delivery id>`). The relay runs this in the events' tenant context.
 */
@Injectable()
export class WebhookDispatcher implements OutboxConsumer, OnModuleInit {
  constructor(
    private readonly relay: OutboxRelay,
    private readonly queue: WebhookQueue,
    private readonly metrics: WebhookMetrics,
    private readonly activity: DeliveryActivity,
  ) {}

  onModuleInit() {
    this.relay.register(this);
  }

  async consume(m: EntityManager, events: OutboxEvent[]) {
    const { client } = tenantContext.get();
    const cols: [string[], string[], (number | null)[], string[], string[]] = [[], [], [], [], []];
    for (const event of events) {
      const { head, tail } = payloadAround(event, client.identifier);
      cols[0].push(event.eventId);
      cols[1].push(event.event);
      cols[2].push(event.companyId);
      cols[3].push(head);
      cols[4].push(tail);
    }
    // The subscribers are matched in the insert itself: one statement, no read of the webhooks first.
    const rows: { id: string; webhook_id: number }[] = await m.query(
      `INSERT INTO public.webhook_deliveries (webhook_id, event_id, event_type, payload, max_attempts, next_attempt_at)
       SELECT w.id, x.e, x.t, x.h || w.id || x.tl, w.max_retries + 1, clock_timestamp()
         FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[]) WITH ORDINALITY AS x(e, t, c, h, tl, n)
         JOIN public.webhooks w
           ON w.is_active
          AND (x.t = ANY (w.events) OR '*' = ANY (w.events))
          AND (w.company_id IS NULL OR w.company_id = x.c)
        ORDER BY x.n, w.id
       RETURNING id, webhook_id`,
      cols,
    );
    if (!rows.length) return async () => undefined;
    this.metrics.deliveries.inc({ status: 'PENDING' }, rows.length);
    return async () => {
      // Marked before the jobs are queued: a delivery whose job is lost is still swept.
      if (!client.isMaster) await this.activity.created(client.identifier).catch(() => undefined);
      await this.queue.enqueue(rows.map((r) => ({ id: Number(r.id), webhookId: r.webhook_id })));
    };
  }
}
