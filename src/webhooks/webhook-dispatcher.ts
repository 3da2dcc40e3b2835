import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { OutboxEvent } from '../events/domain-event';
import { OutboxConsumer, OutboxRelay } from '../events/outbox-relay';
import { tenantContext } from '../tenancy/tenant-context';
import { DeliveriesRepository, EventColumns } from './deliveries.repository';
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
    private readonly deliveries: DeliveriesRepository,
  ) {}

  onModuleInit() {
    this.relay.register(this);
  }

  async consume(m: EntityManager, events: OutboxEvent[]) {
    const { client } = tenantContext.get();
    const cols: EventColumns = [[], [], [], [], []];
    for (const event of events) {
      const { head, tail } = payloadAround(event, client.identifier);
      cols[0].push(event.eventId);
      cols[1].push(event.event);
      cols[2].push(event.companyId);
      cols[3].push(head);
      cols[4].push(tail);
    }
    const rows = await this.deliveries.insertForEvents(m, cols);
    if (!rows.length) return async () => undefined;
    this.metrics.deliveries.inc({ status: 'PENDING' }, rows.length);
    return async () => {
      // Marked before the jobs are queued: a delivery whose job is lost is still swept.
      if (!client.isMaster) await this.activity.created(client.identifier).catch(() => undefined);
      await this.queue.enqueue(rows.map((r) => ({ id: Number(r.id), webhookId: r.webhook_id })));
    };
  }
}
