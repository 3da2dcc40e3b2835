import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { RedisService } from '../redis/redis.service';

export const RESTORE_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type RestoreState = (typeof RESTORE_STATES)[number];
export const RESTORE_TARGETS = ['in-place', 'new-client'] as const;
export type RestoreTarget = (typeof RESTORE_TARGETS)[number];

/** A restore as GET /api/platform/restores/{jobId} answers it. */
export interface RestoreJobView {
  jobId: string;
  backupId: number;
  /** The client restored into: the backup's own (in place) or the new one. */
  clientId: number;
  target: RestoreTarget;
  status: RestoreState;
  error?: string;
  startedAt: string;
  finishedAt: string | null;
}

/** What the worker needs beside the view; never answered. */
export interface RestoreJob extends RestoreJobView {
  requestedBy: { userId: number | null; username: string | null };
  /** The database the restore writes into, named before it is created (so a sweeper can drop it). */
  freshDatabase?: string;
  /** The database the client was on before an in-place restore. */
  previousDatabase?: string;
  /** A new client's login role and database were made by this restore (and may be dropped by it). */
  created?: boolean;
  heartbeatAt?: number;
}

/** A job's progress is kept this long after its last change. */
const KEEP_SECONDS = 7 * 24 * 3600;
/** A client's restore claim outlives a dead worker's restore by this much at most. */
const CLAIM_SECONDS = 6 * 3600;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Restore jobs, one Redis key each (every replica answers their progress), a set of the running
 * ones (for the sweeper of abandoned restores), and one claim per client: one restore at a time.
 */
@Injectable()
export class RestoreJobs {
  constructor(private readonly redis: RedisService) {}

  /** Records a queued job, or answers null when another restore of the client is under way. */
  async create(
    job: Pick<RestoreJob, 'backupId' | 'clientId' | 'target' | 'requestedBy'>,
  ): Promise<RestoreJob | null> {
    const jobId = randomUUID();
    const claimed = await this.redis.client.set(
      this.claimKey(job.clientId),
      jobId,
      'EX',
      CLAIM_SECONDS,
      'NX',
    );
    if (!claimed) return null;
    const view: RestoreJob = {
      ...job,
      jobId,
      status: 'queued',
      startedAt: new Date().toISOString(),
      finishedAt: null,
    };
    await this.save(view);
    return view;
  }

  async save(job: RestoreJob): Promise<void> {
    const multi = this.redis.client.multi().set(this.key(job.jobId), JSON.stringify(job), 'EX', KEEP_SECONDS);
    if (job.status === 'running') multi.sadd(this.runningKey(), job.jobId);
    else multi.srem(this.runningKey(), job.jobId);
    await multi.exec();
  }

  async release(job: RestoreJob): Promise<void> {
    const key = this.claimKey(job.clientId);
    if ((await this.redis.client.get(key)) === job.jobId) await this.redis.client.del(key);
  }

  async get(jobId: string): Promise<RestoreJob | null> {
    if (!UUID.test(jobId)) return null;
    const raw = await this.redis.client.get(this.key(jobId));
    return raw ? (JSON.parse(raw) as RestoreJob) : null;
  }

  async running(): Promise<RestoreJob[]> {
    const ids = await this.redis.client.smembers(this.runningKey());
    const jobs = await Promise.all(ids.map((id) => this.get(id)));
    return jobs.filter((j): j is RestoreJob => !!j && j.status === 'running');
  }

  private key(jobId: string) {
    return this.redis.key('client-restores', jobId);
  }

  private runningKey() {
    return this.redis.key('client-restores', 'running');
  }

  private claimKey(clientId: number) {
    return this.redis.key('client-restores', 'client', clientId);
  }
}

export const restoreView = ({
  requestedBy: _r,
  freshDatabase: _f,
  previousDatabase: _p,
  created: _c,
  heartbeatAt: _h,
  ...view
}: RestoreJob): RestoreJobView => view;
