import { Injectable } from '@nestjs/common';
import { CLIENT_MIGRATIONS } from '../../migrations/client';
import { AppConfig } from '../config/app-config';
import { migrationName } from '../database/migration-runner';
import { TenantQueue } from '../tenancy/tenant-queue';

/**
 * The queue of this release's migration jobs. Releases up to 1.0.0 used LEGACY_CLIENT_MIGRATION_QUEUE,
 * and during a rollout their workers still run: one that took a share of a newer release's job would
 * migrate the client to its own newest migration, report it done and leave it behind. They never
 * read this queue.
 */
export const CLIENT_MIGRATION_QUEUE = 'client-migrations-v2';
/** Jobs that processes of releases up to 1.0.0 queue during a rollout; this release's workers run them too. */
export const LEGACY_CLIENT_MIGRATION_QUEUE = 'client-migrations';

/** The newest client migration of this build: the schema its migration jobs bring a client to. */
export const CLIENT_MIGRATION_TARGET = migrationName(CLIENT_MIGRATIONS[CLIENT_MIGRATIONS.length - 1]);
const KNOWN_TARGETS = new Set(CLIENT_MIGRATIONS.map(migrationName));

/** One client's part of a migration job. */
export interface ClientMigrationJob {
  jobId: string;
  identifier: string;
  /** The newest client migration of the release that queued it (none from releases up to 1.0.0). */
  target?: string;
}

/** True for a job queued by a newer release, whose migrations this build does not have. */
export const queuedByNewerRelease = (job: ClientMigrationJob) =>
  !!job.target && !KNOWN_TARGETS.has(job.target);

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

  enqueue(jobs: ClientMigrationJob[], delayMs = 0): Promise<void> {
    return this.add(jobs, delayMs);
  }
}

/** The queue of releases up to 1.0.0, worked beside the own one while such a release's API processes run. */
@Injectable()
export class LegacyClientMigrationQueue extends TenantQueue<ClientMigrationJob> {
  constructor(config: AppConfig) {
    super(config, { name: LEGACY_CLIENT_MIGRATION_QUEUE, attempts: 1 });
  }
}
