import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { TenantQueue } from '../tenancy/tenant-queue';

export const SERVER_DRAIN_QUEUE = 'database-server-drains';

export interface ServerDrainJob {
  serverId: number;
}

/**
 * Drains with moves, one job per server (queued again while it waits or runs, it is not queued
 * twice). One attempt: a worker lost mid-drain has its job run again by Bull, which resumes it.
 */
@Injectable()
export class ServerDrainQueue extends TenantQueue<ServerDrainJob> {
  constructor(config: AppConfig) {
    super(config, {
      name: SERVER_DRAIN_QUEUE,
      attempts: 1,
      dedup: { key: (job) => job.serverId, per: 'client' },
    });
  }

  enqueue(job: ServerDrainJob): Promise<void> {
    return this.add([job]);
  }
}
