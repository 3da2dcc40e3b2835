import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { TenantQueue } from '../tenancy/tenant-queue';

export const CLIENT_MIGRATION_QUEUE = 'client-migrations';

/** One client's part of a migration job. */
export interface ClientMigrationJob {
  jobId: string;
  identifier: string;
}

/**
 * The queue of client migrations, one Bull job per client of a migration job, so that every worker
 * takes a share, CLIENT_MIGRATION_CONCURRENCY at a time each. One attempt: the job's progress shows
 * a failure, and migrating again is the retry.
 */
@Injectable()
export class ClientMigrationQueue extends TenantQueue<ClientMigrationJob> {
  constructor(config: AppConfig) {
    super(config, { name: CLIENT_MIGRATION_QUEUE, attempts: 1 });
  }

  enqueue(jobs: ClientMigrationJob[]): Promise<void> {
    return this.add(jobs);
  }
}
