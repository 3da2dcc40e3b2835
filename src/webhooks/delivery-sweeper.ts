import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { tenantsToVisit } from '../events/tenants';
import { PerClientRunner } from '../tenancy/per-client-runner';
import { MASTER_CLIENT, PRODUCTION_SCHEMA, TenantClient, tenantContext } from '../tenancy/tenant-context';
import { TenantDatabase } from '../tenancy/tenant-database';
import { runAsTenant } from '../tenancy/tenant-jobs';
import { TenantPools } from '../tenancy/tenant-pools';
import { QueuedDelivery, WebhookQueue } from './webhook-queue';
import { WebhookSettings } from './webhook.settings';

const PURGE_PERIOD_MS = 3600_000;
/** Every tenth sweep visits every tenant, the others only those with an open pool. */
const FULL_SWEEP_EVERY = 10;

/**
 * Workers only. Sweeps: re-enqueues PENDING/RETRYING deliveries whose next attempt is overdue by
 * a sweep interval and that have no live job (a worker killed between commit and enqueue, Redis that lost its data). Purges
 * delivery records older than WEBHOOK_DELIVERY_RETENTION_DAYS once an hour per client.
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
    private readonly db: TenantDatabase,
    private readonly pools: TenantPools,
    private readonly runner: PerClientRunner,
    private readonly queue: WebhookQueue,
    private readonly settings: WebhookSettings,
  ) {}

  onApplicationBootstrap() {
    let tick = 1;
    const sweep = setInterval(
      () => this.track(this.sweepAll(tick++ % FULL_SWEEP_EVERY === 0)),
      this.settings.WEBHOOK_SWEEP_INTERVAL_MS,
    );
    const purge = setInterval(() => this.track(this.purgeAll()), PURGE_PERIOD_MS);
    this.timers = [sweep, purge];
    this.timers.forEach((t) => t.unref());
    // Not a full sweep at start: replicas restarting together would open every client's pool at once.
    this.track(this.sweepAll(false));
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

  /** @param full all tenants; otherwise those whose pool is open here (see tenantsToVisit). */
  async sweepAll(full: boolean): Promise<number> {
    if (this.sweeping) return 0;
    this.sweeping = true;
    let requeued = 0;
    try {
      for (const client of tenantsToVisit(this.runner, this.pools, full)) {
        if (this.stopped) break;
        const tenant = { client, schema: PRODUCTION_SCHEMA, requestId: 'task:webhook-sweep' };
        requeued += await runAsTenant(tenant, () => this.sweep()).catch((err: Error) => {
          this.logger.warn(`Sweep ${client.identifier}: ${err.message}`);
          return 0;
        });
      }
    } finally {
      this.sweeping = false;
    }
    return requeued;
  }

  /** Re-enqueues the orphaned deliveries of the current tenant's client. */
  async sweep(): Promise<number> {
    const ds = await this.db.dataSource();
    // Only deliveries overdue by a whole sweep interval: those due just now are normally still in
    // the queue, and asking Redis about each of them would cost a busy worker two calls per delivery.
    const due: { id: string; webhook_id: number }[] = await ds.query(
      `SELECT id, webhook_id FROM public.webhook_deliveries
        WHERE status IN ('PENDING', 'RETRYING')
          AND next_attempt_at <= clock_timestamp() - make_interval(secs => $1::float8 / 1000)
        ORDER BY next_attempt_at LIMIT 1000`,
      [this.settings.WEBHOOK_SWEEP_INTERVAL_MS],
    );
    const orphans: QueuedDelivery[] = [];
    for (const row of due) {
      const id = Number(row.id);
      if (!(await this.queue.isLive(id))) orphans.push({ id, webhookId: row.webhook_id });
    }
    await this.queue.enqueue(orphans);
    if (orphans.length)
      this.logger.log(`Re-enqueued ${orphans.length} deliveries of ${tenantContext.get().client.identifier}`);
    return orphans.length;
  }

  async purgeAll() {
    const purge = async (client: TenantClient) => void (await this.purge(client));
    await this.runner.runForEachClient('webhook-delivery-purge', PURGE_PERIOD_MS, purge);
    await this.purge(MASTER_CLIENT).catch((err: Error) => this.logger.warn(`Purge master: ${err.message}`));
  }

  /** Deletes delivery records older than the retention, in batches. */
  async purge(client: TenantClient): Promise<number> {
    const ds = await this.db.forClient(client);
    let total = 0;
    for (;;) {
      const [, count] = await ds.query(
        `DELETE FROM public.webhook_deliveries WHERE id IN (
           SELECT id FROM public.webhook_deliveries
            WHERE created_at < now() - make_interval(days => $1) LIMIT 5000)`,
        [this.settings.WEBHOOK_DELIVERY_RETENTION_DAYS],
      );
      total += Number(count ?? 0);
      if (!count || count < 5000) return total;
    }
  }
}
