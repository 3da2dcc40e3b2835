import Bull from 'bull';
import { AppConfig } from '../config/app-config';
import { BACKLOG, ENQUEUE, PICK, RELEASE } from './fair-queue-scripts';
import { JobTenant, TenantJob, tenantJobData } from './tenant-jobs';
import { TenantQueue, TenantQueueOptions } from './tenant-queue';

export interface FairTenantQueueOptions<T> extends TenantQueueOptions<T> {
  dedup: NonNullable<TenantQueueOptions<T>['dedup']>;
  /** Jobs of one client in the Bull queue at most (waiting, running or waiting for a retry). */
  maxInFlightPerClient: number;
  /** How often a processing process moves work on by itself and repairs what a crash left, ms. */
  tickMs?: number;
}

type Queued<T> = T & TenantJob;

/**
 * A TenantQueue served fairly across clients. Work waits first in a pending list per client, in
 * Redis; clients with pending work take turns (round-robin), and a turn moves one job into the Bull
 * queue while that client has fewer than `maxInFlightPerClient` jobs there. In Bull a job's
 * priority is its rank among its client's jobs there, so another client's first job goes ahead of
 * every waiting second, third… job: a client that queues thousands of jobs holds back another
 * client's first job by the jobs already running and at most one waiting job of its own.
 *
 * Jobs move on when work is queued, when a job ends (in the worker that ran it) and on a timer in
 * processing processes. A job leaves the in-flight count inside its last attempt, before Bull drops
 * it, so a job Bull no longer holds while still counted was never added: a process died between the
 * pick and the add. The timer adds such a job again once it has been counted for `lockMs`.
 * Job ids, retries, stalled jobs and locks are Bull's, as in TenantQueue.
 */
export class FairTenantQueue<T extends object> extends TenantQueue<T> {
  private readonly base: string;
  private timer?: NodeJS.Timeout;
  private pumping?: Promise<void>;
  private pumpAgain = false;

  constructor(
    config: AppConfig,
    private readonly fair: FairTenantQueueOptions<T>,
  ) {
    super(config, fair);
    this.base = `${config.REDIS_PREFIX}:fair:${fair.name}`;
  }

  override async onModuleDestroy() {
    clearInterval(this.timer);
    await this.pumping;
    await super.onModuleDestroy();
  }

  /** Queues work of the current tenant behind its client's pending work, then moves jobs on. */
  override async add(items: T[], delayMs = 0): Promise<void> {
    if (delayMs > 0) throw new Error(`Jobs of ${this.queue.name} cannot be delayed`);
    if (!items.length) return;
    const tenant = tenantJobData();
    const client = tenant.client.identifier;
    const args = items.flatMap((data) => [
      this.jobId(tenant, this.fair.dedup.key(data)),
      JSON.stringify({ tenant, ...data }),
    ]);
    await this.redis.eval(
      ENQUEUE,
      3,
      this.key('ring'),
      this.key('payload'),
      this.key('turn'),
      this.base,
      client,
      ...args,
    );
    await this.pump();
  }

  /** True when the current tenant's job of `key` is pending here or live in Bull. */
  override async isLive(key: string | number): Promise<boolean> {
    const tenant = tenantJobData();
    const pending = await this.redis.zscore(this.clientKey('pending', tenant), this.jobId(tenant, key));
    return pending !== null || super.isLive(key);
  }

  override process(concurrency: number, work: (data: T) => Promise<unknown>): void {
    super.process(concurrency, work);
    this.timer = setInterval(() => void this.tick().catch(() => undefined), this.fair.tickMs ?? 1000);
    this.timer.unref();
  }

  /** Jobs pending in the per-client lists (not yet in Bull). */
  async backlog(): Promise<number> {
    return Number(await this.redis.eval(BACKLOG, 1, this.key('ring'), this.base));
  }

  /**
   * Moves jobs into Bull, one per client in turn, until every client with pending work is at its
   * cap. Calls made while a pass runs make it run once more rather than start another.
   */
  pump(): Promise<void> {
    if (this.pumping) {
      this.pumpAgain = true;
      return this.pumping;
    }
    this.pumping = (async () => {
      try {
        do {
          this.pumpAgain = false;
          while (await this.moveOne());
        } while (this.pumpAgain);
      } finally {
        this.pumping = undefined;
      }
    })();
    return this.pumping;
  }

  protected override async runJob(job: Bull.Job<Queued<T>>, work: (data: T) => Promise<unknown>) {
    let last = true;
    try {
      return await super.runJob(job, work);
    } catch (err) {
      last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      throw err;
    } finally {
      if (last) {
        await this.release(job.data.tenant, String(job.id)).catch(() => undefined);
        void this.pump().catch(() => undefined);
      }
    }
  }

  private async moveOne(): Promise<boolean> {
    const args = [this.base, this.fair.maxInFlightPerClient, Date.now()];
    const keys = [this.key('ring'), this.key('payload'), this.key('turn'), this.key('clients')];
    const picked = (await this.redis.eval(PICK, 4, ...keys, ...args)) as
      [string, string | null, number] | null;
    if (!picked) return false;
    const [, payload, ahead] = picked;
    if (payload) await this.addToBull(JSON.parse(payload) as Queued<T>, ahead);
    return true;
  }

  /**
   * Bull serves the lowest priority number first, in arrival order within one: a job goes in with
   * its rank among its client's jobs in flight, so a client's first job waits behind no other
   * client's second, whatever arrived first.
   */
  private addToBull(data: Queued<T>, ahead: number) {
    const { tenant, ...work } = data;
    return this.queue.add(data, { ...this.jobOptions(tenant, work as unknown as T, 0), priority: ahead + 1 });
  }

  private release(tenant: JobTenant, jobId: string) {
    const keys = [this.clientKey('inflight', tenant), this.clientKey('pending', tenant), this.key('payload')];
    return this.redis.eval(RELEASE, 4, ...keys, this.key('clients'), jobId, tenant.client.identifier);
  }

  /** Adds again the jobs counted in flight that Bull does not hold, then moves jobs on. */
  private async tick() {
    const before = Date.now() - (this.fair.lockMs ?? 30_000);
    for (const client of await this.redis.smembers(this.key('clients'))) {
      const inflight = `${this.base}:inflight:${client}`;
      for (const id of await this.redis.zrangebyscore(inflight, 0, before)) {
        if (await this.queue.getJob(id)) continue;
        if ((await this.redis.zscore(inflight, id)) === null) continue; // released meanwhile
        const payload = await this.redis.hget(this.key('payload'), id);
        await this.redis.zadd(inflight, Date.now(), id);
        if (payload) await this.addToBull(JSON.parse(payload) as Queued<T>, this.fair.maxInFlightPerClient);
        else await this.redis.zrem(inflight, id);
      }
    }
    await this.pump();
  }

  private get redis() {
    return this.queue.client;
  }

  private key(name: string) {
    return `${this.base}:${name}`;
  }

  private clientKey(name: 'pending' | 'inflight', tenant: JobTenant) {
    return `${this.base}:${name}:${tenant.client.identifier}`;
  }
}
