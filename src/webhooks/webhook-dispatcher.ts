import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { OutboxEvent } from '../events/domain-event';
import { OutboxConsumer, OutboxRelay } from '../events/outbox-relay';
import { tenantContext } from '../tenancy/tenant-context';
import { DeliveryActivity } from './delivery-activity';
import { buildPayload } from './webhook-payload';
import { WebhookMetrics } from './webhook-metrics';
import { WebhookQueue } from './webhook-queue';

interface Subscriber {
  id: number;
  events: string[];
  company_id: number | null;
  max_retries: number;
}

/**
 * Turns outbox events into deliveries: for each active webhook of the client database subscribed
 * to the code (or `*`), of the event's company or system-wide, a delivery row is created in the
 * relay's transaction; its job is enqueued after commit (job id `<client>:<delivery id>`). The
 * relay runs this in the events' tenant context.
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
    const hooks: Subscriber[] = await m.query(
      'SELECT id, events, company_id, max_retries FROM public.webhooks WHERE is_active',
    );
    const cols: [number[], string[], string[], string[], number[]] = [[], [], [], [], []];
    for (const event of events) {
      for (const hook of hooks) {
        const subscribed = hook.events.includes(event.event) || hook.events.includes('*');
        const company = hook.company_id === null || hook.company_id === event.companyId;
        if (!subscribed || !company) continue;
        cols[0].push(hook.id);
        cols[1].push(event.eventId);
        cols[2].push(event.event);
        cols[3].push(buildPayload(event, hook.id, client.identifier));
        cols[4].push(hook.max_retries + 1);
      }
    }
    if (!cols[0].length) return async () => undefined;
    const rows: { id: string; webhook_id: number }[] = await m.query(
      `INSERT INTO public.webhook_deliveries (webhook_id, event_id, event_type, payload, max_attempts, next_attempt_at)
       SELECT w, e, t, p, a, clock_timestamp()
         FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::int[]) AS x(w, e, t, p, a)
       RETURNING id, webhook_id`,
      cols,
    );
    this.metrics.deliveries.inc({ status: 'PENDING' }, rows.length);
    return async () => {
      // Marked before the jobs are queued: a delivery whose job is lost is still swept.
      if (!client.isMaster) await this.activity.created(client.identifier).catch(() => undefined);
      await this.queue.enqueue(rows.map((r) => ({ id: Number(r.id), webhookId: r.webhook_id })));
    };
  }
}
