import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RateLimiter } from '../rate-limits/rate-limiter';
import { TokenBucket } from '../rate-limits/token-bucket';
import { PerClientRunner } from '../tenancy/per-client-runner';
import { PRODUCTION_SCHEMA, TenantClient, tenantContext } from '../tenancy/tenant-context';
import { TenantDatabase } from '../tenancy/tenant-database';
import { TenantPools } from '../tenancy/tenant-pools';
import { OutboxEvent } from './domain-event';
import { EventsSettings } from './events.settings';
import { tenantsToVisit } from './tenants';

/**
 * Handles outbox events inside the relay's transaction (e.g. creating delivery rows) and answers
 * work to run after that transaction commits (e.g. enqueueing jobs). Both run inside the tenant
 * context of the events' client (production schema), so the consumer reads the client from it.
 */
export interface OutboxConsumer {
  consume(manager: EntityManager, events: OutboxEvent[]): Promise<() => Promise<void>>;
}

interface OutboxRow {
  id: string;
  event_id: string;
  event: string;
  entity_type: string;
  entity_id: string | null;
  company_id: number | null;
  attributes: Record<string, unknown>;
  previous: { value: Record<string, unknown> | null } | null;
  metadata: Record<string, unknown> | null;
  occurred_at: Date;
}

/**
 * Moves outbox rows of each tenant to the consumers: rows are locked with FOR UPDATE SKIP LOCKED,
 * handed over and deleted in one transaction, so replicas relaying together never hand an event on
 * twice, and a crash before commit leaves the rows for the next pass. Runs on a nudge after a commit
 * and, in workers, on a polling timer.
 */
@Injectable()
export class OutboxRelay implements OnModuleDestroy {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly consumers: OutboxConsumer[] = [];
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private readonly deferred = new Map<string, NodeJS.Timeout>();
  private timer?: NodeJS.Timeout;
  private stopped = false;
  /** Caps the events per second and client that the relay hands on (WEBHOOK_MAX_EVENTS_PER_SECOND). */
  private readonly limiter: TokenBucket;

  constructor(
    private readonly db: TenantDatabase,
    private readonly pools: TenantPools,
    private readonly runner: PerClientRunner,
    rateLimiter: RateLimiter,
    private readonly settings: EventsSettings,
  ) {
    this.limiter = rateLimiter.bucket('events', settings.WEBHOOK_MAX_EVENTS_PER_SECOND);
  }

  register(consumer: OutboxConsumer) {
    this.consumers.push(consumer);
  }

  /**
   * Starts polling (workers only): every EVENT_RELAY_POLL_MS the tenants with an open pool, every
   * EVENT_RELAY_FULL_SCAN_MS all of them; one tenant after the other.
   */
  startPolling() {
    const fullEvery = Math.max(
      1,
      Math.round(this.settings.EVENT_RELAY_FULL_SCAN_MS / this.settings.EVENT_RELAY_POLL_MS),
    );
    let tick = 0;
    let busy = false;
    this.timer = setInterval(() => {
      if (busy) return;
      busy = true;
      const full = tick++ % fullEvery === 0;
      void this.pollOnce(full).finally(() => (busy = false));
    }, this.settings.EVENT_RELAY_POLL_MS);
    this.timer.unref();
  }

  /** Drains the outbox of each tenant to visit, one after the other. */
  async pollOnce(full: boolean): Promise<void> {
    for (const client of tenantsToVisit(this.runner, this.pools, full)) {
      if (this.stopped) return;
      this.nudge(client);
      await this.running.get(client.identifier);
    }
  }

  /** Stops, then waits for the drains in flight: they use pools that close right after. */
  async onModuleDestroy() {
    this.stopped = true;
    clearInterval(this.timer);
    for (const t of this.deferred.values()) clearTimeout(t);
    await this.idle();
  }

  /** Drains the tenant's outbox soon; several nudges during a drain cause one more pass. */
  nudge(client: TenantClient) {
    if (this.stopped || !this.consumers.length) return;
    const key = client.identifier;
    if (this.running.has(key)) {
      this.again.add(key);
      return;
    }
    const store = { requestId: `relay:${key}`, client, schema: PRODUCTION_SCHEMA };
    const run = tenantContext
      .run(store, () => this.drain(client))
      .catch((err: Error) => this.logger.warn(`Relay ${key}: ${err.message}`))
      .finally(() => {
        this.running.delete(key);
        if (this.again.delete(key)) this.nudge(client);
      });
    this.running.set(key, run);
  }

  /** Waits for the drains in flight (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.running.values()]);
  }

  private async drain(client: TenantClient): Promise<void> {
    const batch = this.settings.EVENT_RELAY_BATCH;
    for (;;) {
      if (this.stopped) return;
      const { granted, retryAfterMs } = await this.limiter.take(client.identifier, batch);
      if (granted === 0) return this.deferTillTokens(client, retryAfterMs);
      const moved = await this.moveBatch(client, granted);
      await this.limiter.refund(client.identifier, granted - moved);
      if (moved < granted) return;
    }
  }

  private async moveBatch(client: TenantClient, limit: number): Promise<number> {
    const dataSource = await this.db.forClient(client);
    let after: (() => Promise<void>)[] = [];
    const count = await dataSource.transaction(async (m) => {
      const rows: OutboxRow[] = await m.query(
        `SELECT * FROM public.event_outbox ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [limit],
      );
      if (!rows.length) return 0;
      const events = rows.map(toEvent);
      after = [];
      for (const consumer of this.consumers) after.push(await consumer.consume(m, events));
      await m.query('DELETE FROM public.event_outbox WHERE id = ANY($1::bigint[])', [rows.map((r) => r.id)]);
      return rows.length;
    });
    for (const work of after) await work();
    return count;
  }

  private deferTillTokens(client: TenantClient, retryAfterMs: number) {
    if (this.deferred.has(client.identifier)) return;
    const wait = Math.max(10, retryAfterMs);
    const timer = setTimeout(() => {
      this.deferred.delete(client.identifier);
      this.nudge(client);
    }, wait);
    timer.unref();
    this.deferred.set(client.identifier, timer);
  }
}

function toEvent(r: OutboxRow): OutboxEvent {
  return {
    id: r.id,
    eventId: r.event_id,
    event: r.event,
    entityType: r.entity_type,
    entityId: r.entity_id === null ? null : Number(r.entity_id),
    companyId: r.company_id,
    attributes: r.attributes,
    previous: r.previous === null ? undefined : r.previous.value,
    metadata: r.metadata,
    occurredAt: r.occurred_at,
  };
}
