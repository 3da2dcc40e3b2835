import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { allTenants } from '../events/tenants';
import { RedisService } from '../redis/redis.service';
import { PerClientRunner } from '../tenancy/per-client-runner';
import { MASTER_CLIENT, PRODUCTION_SCHEMA, TenantClient, tenantContext } from '../tenancy/tenant-context';
import { runAsTenant } from '../tenancy/tenant-jobs';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryActivity } from './delivery-activity';
import { QueuedDelivery, WebhookQueue } from './webhook-queue';
import { WebhookSettings } from './webhook.settings';

const PURGE_PERIOD_MS = 3600_000;
const DAY_MS = 86_400_000;
const PURGE_BATCH = 5000;
/** Tenants the full pass looks into at once. */
const FULL_PASS_CONCURRENCY = 2;

/**
 * Workers only. Sweeps: re-enqueues PENDING/RETRYING deliveries whose next attempt is overdue by
 * a sweep interval and that have no live job (a worker killed between commit and enqueue, Redis
 * that lost its data). Purges delivery records older than WEBHOOK_DELIVERY_RETENTION_DAYS once an
 * hour per client. Both visit only the clients DeliveryActivity names (and the master), so an idle
 * client costs them no connection; every WEBHOOK_FULL_SWEEP_MS a slow pass over every client, a few
 * at a time and once across replicas, puts back the clients whose marks were lost.
 */
@Injectable()
export class DeliverySweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DeliverySweeper.name);
  private timers: NodeJS.Timeout[] = [];
  private sweeping = false;
  private stopped = false;
  /** Sweeps and purges under way; shutdown waits for them before the pools close. */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly runner: PerClientRunner,
    private readonly queue: WebhookQueue,
    private readonly activity: DeliveryActivity,
    private readonly redis: RedisService,
    private readonly settings: WebhookSettings,
  ) {}

  onApplicationBootstrap() {
    const every = (ms: number, work: () => Promise<unknown>) => setInterval(() => this.track(work()), ms);
    this.timers = [
      every(this.settings.WEBHOOK_SWEEP_INTERVAL_MS, () => this.sweepAll()),
      every(PURGE_PERIOD_MS, () => this.purgeAll()),
      every(this.settings.WEBHOOK_FULL_SWEEP_MS, () => this.fullPass()),
    ];
    this.timers.forEach((t) => t.unref());
    this.track(this.sweepAll());
  }

  async onModuleDestroy() {
    this.stopped = true;
    this.timers.forEach((t) => clearInterval(t));
    await Promise.allSettled([...this.inFlight]);
  }

  private track(work: Promise<unknown>) {
    const settled = work.catch(() => undefined).finally(() => this.inFlight.delete(settled));
    this.inFlight.add(settled);
  }

  /**
   * Sweeps the master and the clients that may hold pending deliveries, except those whose newest
   * delivery is younger than a sweep interval (its job is normally still queued); a client found
   * with none pending leaves the set.
   */
  async sweepAll(): Promise<number> {
    if (this.sweeping) return 0;
    this.sweeping = true;
    let requeued = 0;
    try {
      const pending = await this.activity.clients('pending');
      const settledBefore = Date.now() - this.settings.WEBHOOK_SWEEP_INTERVAL_MS;
      for (const client of allTenants(this.runner)) {
        if (this.stopped) break;
        const newest = pending.get(client.identifier);
        if (!client.isMaster && (newest === undefined || newest > settledBefore)) continue;
        const since = Date.now();
        const tenant = { client, schema: PRODUCTION_SCHEMA, requestId: 'task:webhook-sweep' };
        const swept = await runAsTenant(tenant, () => this.sweep()).catch((err: Error) => {
          this.logger.warn(`Sweep ${client.identifier}: ${err.message}`);
          return { requeued: 0, pendingLeft: true };
        });
        requeued += swept.requeued;
        if (!client.isMaster && !swept.pendingLeft)
          await this.activity.done(client.identifier, 'pending', since);
      }
    } finally {
      this.sweeping = false;
    }
    return requeued;
  }

  /** Re-enqueues the orphaned deliveries of the current tenant's client. */
  async sweep(): Promise<{ requeued: number; pendingLeft: boolean }> {
    // Only deliveries overdue by a whole sweep interval: those due just now are normally still in
    // the queue, and asking Redis about each of them would cost a busy worker two calls per delivery.
    const due = await this.deliveries.overdue(this.settings.WEBHOOK_SWEEP_INTERVAL_MS);
    const orphans: QueuedDelivery[] = [];
    for (const row of due) {
      const id = Number(row.id);
      if (!(await this.queue.isLive(id))) orphans.push({ id, webhookId: row.webhook_id });
    }
    await this.queue.enqueue(orphans);
    if (orphans.length)
      this.logger.log(`Re-enqueued ${orphans.length} deliveries of ${tenantContext.get().client.identifier}`);
    const pendingLeft = due.length > 0 || (await this.deliveries.anyPending());
    return { requeued: orphans.length, pendingLeft };
  }

  /** Purges the master and the clients that may hold delivery records, once across replicas. */
  async purgeAll(): Promise<void> {
    const retained = await this.activity.clients('retained');
    const expiry = Date.now() - this.settings.WEBHOOK_DELIVERY_RETENTION_DAYS * DAY_MS;
    const clients = allTenants(this.runner).filter((c) => !c.isMaster && retained.has(c.identifier));
    for (const client of clients) {
      if (this.stopped) return;
      if (!(await this.claim('webhook-delivery-purge', client, PURGE_PERIOD_MS))) continue;
      const purged = await this.purge(client).then(
        () => true,
        (err: Error) => this.logger.warn(`Purge ${client.identifier}: ${err.message}`),
      );
      // Its newest delivery was past the retention: the purge left it none.
      if (purged && retained.get(client.identifier)! < expiry)
        await this.activity.done(client.identifier, 'retained', expiry);
    }
    if (await this.claim('webhook-delivery-purge', MASTER_CLIENT, PURGE_PERIOD_MS))
      await this.purge(MASTER_CLIENT).catch((err: Error) => this.logger.warn(`Purge master: ${err.message}`));
  }

  /** Deletes delivery records older than the retention, in batches. */
  async purge(client: TenantClient): Promise<number> {
    let total = 0;
    for (;;) {
      const count = await this.deliveries.purgeBatch(
        client,
        this.settings.WEBHOOK_DELIVERY_RETENTION_DAYS,
        PURGE_BATCH,
      );
      total += count;
      if (count < PURGE_BATCH) return total;
    }
  }

  /**
   * The slow fallback: looks into every client's deliveries, FULL_PASS_CONCURRENCY at a time, and
   * marks those holding pending deliveries or records the sets have lost. Answers their identifiers.
   */
  async fullPass(): Promise<string[]> {
    const queue = allTenants(this.runner).filter((c) => !c.isMaster);
    const found: string[] = [];
    const lane = async () => {
      for (let client = queue.shift(); client && !this.stopped; client = queue.shift()) {
        if (!(await this.claim('webhook-full-pass', client, this.settings.WEBHOOK_FULL_SWEEP_MS))) continue;
        const marked = await this.remark(client).catch((err: Error) => {
          this.logger.warn(`Full pass ${client.identifier}: ${err.message}`);
          return false;
        });
        if (marked) found.push(client.identifier);
      }
    };
    await Promise.all(Array.from({ length: FULL_PASS_CONCURRENCY }, lane));
    return found;
  }

  private async remark(client: TenantClient): Promise<boolean> {
    const row = await this.deliveries.activity(client);
    if (row.pending) await this.activity.found(client.identifier, 'pending', row.pending.getTime());
    if (row.newest) await this.activity.found(client.identifier, 'retained', row.newest.getTime());
    return row.newest !== null;
  }

  /** One replica per task, client and period. */
  private async claim(task: string, client: TenantClient, periodMs: number): Promise<boolean> {
    const slot = Math.floor(Date.now() / periodMs);
    const lock = this.redis.key('task', task, client.identifier, slot);
    return (await this.redis.client.set(lock, randomUUID(), 'PX', periodMs, 'NX')) === 'OK';
  }
}
