import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RateLimiter } from '../rate-limits/rate-limiter';
import { TokenBucket } from '../rate-limits/token-bucket';
import { PerClientRunner } from '../tenancy/per-client-runner';
import { PRODUCTION_SCHEMA, TenantClient, tenantContext } from '../tenancy/tenant-context';
import { TenantDatabase } from '../tenancy/tenant-database';
import { OutboxEvent } from './domain-event';
import { EventsSettings } from './events.settings';
import { OutboxMetrics } from './outbox-metrics';
import { OutboxRepository } from './outbox.repository';
import { HeldTenant, OutboxSignals, TenantLock } from './outbox-signals';
import { allTenants } from './tenants';

/**
 * Handles outbox events inside the relay's transaction (e.g. creating delivery rows) and answers
 * work to run after that transaction commits (e.g. enqueueing jobs). Both run inside the tenant
 * context of the events' client (production schema), so the consumer reads the client from it.
 */
export interface OutboxConsumer {
  consume(manager: EntityManager, events: OutboxEvent[]): Promise<() => Promise<void>>;
}

type DrainOutcome = 'empty' | 'limited';

/**
 * Moves outbox rows of signalled tenants to the consumers. A commit that published signals its
 * tenant in Redis (OutboxSignals) and has the relay of its own process drain it at once; relays
 * in workers also follow the signals of every replica, so only tenants with events cost a
 * connection. One relay at a time drains a tenant (a Redis lock); rows are locked with FOR UPDATE
 * SKIP LOCKED, handed over and deleted in one transaction, so an event is never handed on twice,
 * and a crash before commit leaves the rows and the signal for the next relay. OutboxSweep finds
 * events whose signal was lost.
 */
@Injectable()
export class OutboxRelay implements OnModuleDestroy {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly consumers: OutboxConsumer[] = [];
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  /** Tenants waiting for a free drain slot (EVENT_RELAY_CONCURRENCY), in arrival order. */
  private readonly waiting = new Map<string, TenantClient>();
  private readonly deferred = new Map<string, NodeJS.Timeout>();
  /** Tenants whose signal could not be written (Redis unreachable), written again on the next tick. */
  private readonly unsignalled = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private following = false;
  private stopped = false;
  /** Caps the events per second and client that the relay hands on (WEBHOOK_MAX_EVENTS_PER_SECOND). */
  private readonly limiter: TokenBucket;

  constructor(
    private readonly db: TenantDatabase,
    private readonly runner: PerClientRunner,
    private readonly signals: OutboxSignals,
    private readonly metrics: OutboxMetrics,
    rateLimiter: RateLimiter,
    private readonly settings: EventsSettings,
    private readonly outbox: OutboxRepository,
  ) {
    this.limiter = rateLimiter.bucket('events', settings.WEBHOOK_MAX_EVENTS_PER_SECOND);
  }

  register(consumer: OutboxConsumer) {
    this.consumers.push(consumer);
  }

  /** After a commit that published: signals the tenant to every relay, then drains it here. */
  async committed(client: TenantClient, sinceMs = Date.now()): Promise<void> {
    const key = client.identifier;
    if (this.hasSlotFor(key)) {
      // The usual case: the signal and this relay's lock in one call, and the drain right after.
      const held = this.signals.signalAndLock(key, sinceMs);
      this.start(
        client,
        held.catch(() => null),
      );
      await held.then(
        () => this.unsignalled.delete(key),
        (err: Error) => this.signalFailed(client, sinceMs, err),
      );
      return;
    }
    try {
      await this.signals.signal(key, sinceMs);
      this.unsignalled.delete(key);
    } catch (err) {
      this.signalFailed(client, sinceMs, err as Error);
    }
    if (this.canRelay()) this.nudge(client);
    else await this.signals.wakeOthers(key).catch(() => undefined);
  }

  /**
   * Follows the signals (workers only): at once on a wake message, and every EVENT_RELAY_POLL_MS
   * reads the signalled tenants (one Redis call; no database is touched while none is signalled).
   */
  async follow(): Promise<void> {
    this.following = true;
    await this.signals.onWake((identifier) => {
      const client = this.known().get(identifier);
      if (client) this.nudge(client);
    });
    this.scheduleTick();
  }

  /** Writes the signals that failed; when following, drains every signalled tenant known here. */
  async pollOnce(): Promise<void> {
    const known = this.known();
    for (const [identifier, since] of this.unsignalled) {
      const client = known.get(identifier);
      if (client) await this.committed(client, since);
      else this.unsignalled.delete(identifier);
    }
    if (!this.following) return;
    for (const [identifier, since] of await this.signals.pending()) {
      const client = known.get(identifier);
      if (client) this.nudge(client);
      // A client deleted or suspended since it was signalled: the sweep finds its rows if it returns.
      else if (Date.now() - since > this.settings.EVENT_RELAY_FULL_SCAN_MS)
        await this.signals.drop(identifier);
    }
  }

  /** Stops, then waits for the drains in flight: they use pools that close right after. */
  async onModuleDestroy() {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const t of this.deferred.values()) clearTimeout(t);
    this.waiting.clear();
    await this.idle();
  }

  /** Drains the tenant's outbox soon; several nudges during a drain cause one more pass. */
  nudge(client: TenantClient) {
    if (!this.canRelay()) return;
    const key = client.identifier;
    if (this.running.has(key)) {
      this.again.add(key);
      return;
    }
    if (this.running.size >= this.settings.EVENT_RELAY_CONCURRENCY) {
      this.waiting.set(key, client);
      return;
    }
    this.start(client);
  }

  /** Waits for the drains in flight and those waiting for a slot (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running.values()]);
  }

  private hasSlotFor(key: string): boolean {
    return (
      this.canRelay() && !this.running.has(key) && this.running.size < this.settings.EVENT_RELAY_CONCURRENCY
    );
  }

  /** Visits the tenant in a slot of its own; `held`: its lock, when the caller is already taking it. */
  private start(client: TenantClient, held?: Promise<HeldTenant | null>) {
    const key = client.identifier;
    const store = { requestId: `relay:${key}`, client, schema: PRODUCTION_SCHEMA };
    const run = tenantContext
      .run(store, () => this.visit(client, held))
      .catch((err: Error) => this.logger.warn(`Relay ${key}: ${err.message}`))
      .finally(() => {
        this.running.delete(key);
        if (this.again.delete(key)) this.nudge(client);
        const [next] = this.waiting.values();
        if (next) {
          this.waiting.delete(next.identifier);
          this.nudge(next);
        }
      });
    this.running.set(key, run);
  }

  private signalFailed(client: TenantClient, sinceMs: number, err: Error) {
    this.logger.warn(`Signal ${client.identifier}: ${err.message}`);
    this.unsignalled.set(
      client.identifier,
      Math.min(sinceMs, this.unsignalled.get(client.identifier) ?? sinceMs),
    );
    this.scheduleTick();
  }

  private canRelay(): boolean {
    return !this.stopped && this.consumers.length > 0;
  }

  private scheduleTick() {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      void this.pollOnce()
        .catch((err: Error) => this.logger.warn(`Relay poll: ${err.message}`))
        .finally(() => {
          this.timer = undefined;
          if (this.following || this.unsignalled.size) this.scheduleTick();
        });
    }, this.settings.EVENT_RELAY_POLL_MS);
    this.timer.unref();
  }

  private known(): Map<string, TenantClient> {
    return new Map(allTenants(this.runner).map((c) => [c.identifier, c]));
  }

  /**
   * Drains the tenant while holding its lock, and drops its signal only once a drain found the
   * outbox empty with no newer signal; a relay already holding the lock sees newer signals itself.
   */
  private async visit(client: TenantClient, claim?: Promise<HeldTenant | null>): Promise<void> {
    const held = await (claim ?? this.signals.lock(client.identifier));
    if (!held) return;
    const { lock } = held;
    let version: string | null = held.version;
    try {
      while (version !== null) {
        const startedAt = Date.now();
        const { outcome, unused } = await this.drain(client, lock);
        if (outcome === 'limited') return;
        // The unused tokens go back in the same round trip as the settle.
        const [, next]: [void, string | null] = await Promise.all([
          this.limiter.refund(client.identifier, unused),
          this.signals.settle(client.identifier, lock, version, startedAt),
        ]);
        version = next;
      }
    } finally {
      if (version !== null) await this.signals.unlock(lock).catch(() => undefined);
    }
  }

  /** Moves batches until one comes back short ('empty', with the tokens it left unused) or tokens run out. */
  private async drain(
    client: TenantClient,
    lock: TenantLock,
  ): Promise<{ outcome: DrainOutcome; unused: number }> {
    const batch = this.settings.EVENT_RELAY_BATCH;
    for (let first = true; ; first = false) {
      if (this.stopped) return { outcome: 'limited', unused: 0 };
      if (!first) await this.signals.renew(lock);
      const { granted, retryAfterMs } = await this.limiter.take(client.identifier, batch);
      if (granted === 0) {
        this.deferTillTokens(client, retryAfterMs);
        return { outcome: 'limited', unused: 0 };
      }
      const moved = await this.moveBatch(client, granted);
      if (moved < granted) return { outcome: 'empty', unused: granted - moved };
    }
  }

  /** Locks, deletes and hands on up to `limit` rows in one transaction: one statement takes them. */
  private async moveBatch(client: TenantClient, limit: number): Promise<number> {
    const dataSource = await this.db.forClient(client);
    let after: (() => Promise<void>)[] = [];
    let lags: number[] = [];
    const count = await dataSource.transaction(async (m) => {
      const { events, lagSeconds } = await this.outbox.take(m, limit);
      if (!events.length) return 0;
      after = [];
      for (const consumer of this.consumers) after.push(await consumer.consume(m, events));
      lags = lagSeconds;
      return events.length;
    });
    for (const lag of lags) this.metrics.relayLag.observe(Math.max(0, lag));
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
