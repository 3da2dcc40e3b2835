import { OnModuleDestroy } from '@nestjs/common';
import Bull from 'bull';
import { AppConfig } from '../config/app-config';
import { JobRetries, retryJobOptions, retrySettings } from './job-retries';
import { closeJobQueue, JobTenant, openJobQueue, runAsTenant, TenantJob, tenantJobData } from './tenant-jobs';

export interface TenantQueueOptions<T> extends JobRetries {
  /** The Bull queue's name, which the queue dashboard and the metrics show. */
  name: string;
  /**
   * Gives each job an id from its work's key, so the same work is queued once (see TenantQueue);
   * `per: 'schema'` when the work's rows exist once per schema (a sandbox has its own), `'client'`
   * when they exist once per client database. Without it Bull numbers the jobs.
   */
  dedup?: { key: (data: T) => string | number; per: 'client' | 'schema' };
  /** Finished jobs (completed and failed alike) kept for the dashboard; none when unset. */
  keepFinished?: number;
  /**
   * How long a running job's lock lasts: the job of a worker that died is run again by another
   * after this long (up to 100 times). Bull's defaults when unset.
   */
  lockMs?: number;
}

const LIVE_STATES = new Set(['waiting', 'active', 'delayed', 'paused']);

/**
 * A Bull queue whose jobs run in the tenant that queued them: `add` stores the current tenant in
 * each job's `tenant` field beside its data, and `process` runs the work inside that tenant again.
 *
 * Job ids, for a queue with `dedup`: `<client>:<key>`, or `<client>:<schema>:<key>` per schema (the
 * queue's name already tells kinds of work apart). Bull ignores a job whose id it still holds, so
 * work queued again while its job waits, is delayed or runs is not queued twice.
 */
export class TenantQueue<T extends object> implements OnModuleDestroy {
  readonly queue: Bull.Queue<T & TenantJob>;

  constructor(
    config: AppConfig,
    private readonly options: TenantQueueOptions<T>,
  ) {
    const { name, lockMs } = options;
    const locks =
      lockMs === undefined ? {} : { lockDuration: lockMs, stalledInterval: lockMs, maxStalledCount: 100 };
    this.queue = openJobQueue(config, name, { ...locks, ...retrySettings(options) });
  }

  async onModuleDestroy() {
    await closeJobQueue(this.queue);
  }

  /** Queues work of the current tenant, after `delayMs`; throws outside a tenant context. */
  async add(items: T[], delayMs = 0): Promise<void> {
    if (!items.length) return;
    const tenant = tenantJobData();
    await this.queue.addBulk(
      items.map((data) => ({ data: { tenant, ...data }, opts: this.jobOptions(tenant, data, delayMs) })),
    );
  }

  /** True when the current tenant's job of `key` is waiting, delayed or running. */
  async isLive(key: string | number): Promise<boolean> {
    const job = await this.queue.getJob(this.jobId(tenantJobData(), key));
    return !!job && LIVE_STATES.has(await job.getState());
  }

  /** Runs this process's share of the jobs, `concurrency` at a time, each in the tenant that queued it. */
  process(concurrency: number, work: (data: T) => Promise<unknown>): void {
    void this.queue.process(concurrency, (job: Bull.Job<T & TenantJob>) => this.runJob(job, work));
  }

  /** One attempt of a job, in its tenant. */
  protected runJob(job: Bull.Job<T & TenantJob>, work: (data: T) => Promise<unknown>): Promise<unknown> {
    return runAsTenant(this.tenantOf(job), () => work(job.data));
  }

  /** The tenant a job runs in (runAsTenant checks it again: it comes back from Redis). */
  protected tenantOf(job: Bull.Job<T & TenantJob>): JobTenant {
    return job.data.tenant;
  }

  protected jobOptions(tenant: JobTenant, data: T, delayMs: number): Bull.JobOptions {
    const { dedup, keepFinished } = this.options;
    return {
      ...(dedup && { jobId: this.jobId(tenant, dedup.key(data)) }),
      delay: delayMs,
      ...retryJobOptions(this.options),
      removeOnComplete: keepFinished ?? true,
      removeOnFail: keepFinished ?? true,
    };
  }

  protected jobId({ client, schema }: JobTenant, key: string | number): string {
    const { dedup } = this.options;
    if (!dedup) throw new Error(`Jobs of ${this.queue.name} have no ids of their own`);
    return dedup.per === 'schema' ? `${client.identifier}:${schema}:${key}` : `${client.identifier}:${key}`;
  }
}
