import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { MASTER_CLIENT, PRODUCTION_SCHEMA, tenantContext } from '../tenancy/tenant-context';
import { TenantQueue } from '../tenancy/tenant-queue';

/** Platform work: queued in the master's context whether a request or the scheduler queues it. */
function asPlatform<T>(work: () => Promise<T>): Promise<T> {
  if (tenantContext.peek()) return work();
  return tenantContext.run({ requestId: 'backups', client: MASTER_CLIENT, schema: PRODUCTION_SCHEMA }, work);
}

export interface BackupJob {
  backupId: number;
}

/**
 * One job per backup (its id names the job, so it is queued once). One attempt: a job whose worker
 * died is not run again (its backup is marked failed by the sweeper); backing up again is the retry.
 */
@Injectable()
export class BackupQueue extends TenantQueue<BackupJob> {
  constructor(config: AppConfig) {
    super(config, { name: 'client-backups', attempts: 1, dedup: { key: (j) => j.backupId, per: 'client' } });
  }

  enqueue(job: BackupJob, delayMs = 0): Promise<void> {
    return asPlatform(() => this.add([job], delayMs));
  }

  /** The Bull job id answered to the caller. */
  jobIdOf(backupId: number): string {
    return `${MASTER_CLIENT.identifier}:${backupId}`;
  }
}

export interface RestoreQueueJob {
  jobId: string;
}

/** Restore jobs; one attempt (a restore's worker that died leaves it to the sweeper). */
@Injectable()
export class RestoreQueue extends TenantQueue<RestoreQueueJob> {
  constructor(config: AppConfig) {
    super(config, { name: 'client-restores', attempts: 1, dedup: { key: (j) => j.jobId, per: 'client' } });
  }

  enqueue(job: RestoreQueueJob): Promise<void> {
    return asPlatform(() => this.add([job]));
  }
}

export interface ScheduleJob {
  slot: 'scheduled';
}

/** The scheduled run: a Bull repeatable job, so one run per cron slot across every worker. */
@Injectable()
export class BackupScheduleQueue extends TenantQueue<ScheduleJob> {
  static readonly JOB_ID = 'backup-schedule';

  constructor(config: AppConfig) {
    super(config, { name: 'client-backup-schedule', attempts: 1 });
  }

  /** Sets the repeatable job to `cron` (UTC), removing one left by a former schedule; none when empty. */
  async schedule(cron: string | undefined): Promise<void> {
    for (const repeat of await this.queue.getRepeatableJobs()) {
      if (repeat.id === BackupScheduleQueue.JOB_ID && repeat.cron !== cron) {
        await this.queue.removeRepeatableByKey(repeat.key);
      }
    }
    if (!cron) return;
    await this.queue.add(
      {
        slot: 'scheduled',
        tenant: { client: MASTER_CLIENT, schema: PRODUCTION_SCHEMA, requestId: BackupScheduleQueue.JOB_ID },
      },
      {
        jobId: BackupScheduleQueue.JOB_ID,
        repeat: { cron, tz: 'UTC' },
        removeOnComplete: true,
        removeOnFail: true,
      },
    );
  }
}
