import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ClientRegistry } from '../tenancy/client-registry';
import { backgroundFailure, BackgroundMigrator } from './background-migrator';
import {
  ClientMigrationJob,
  ClientMigrationQueue,
  LegacyClientMigrationQueue,
  queuedByNewerRelease,
} from './client-migration.queue';
import { ClientMigrator } from './client-migrator';
import { ClientMigrationProgress, MigrationJobs } from './migration-jobs';
import { PlatformSettings } from './platform.settings';
import { publicFailure } from './public-failure';

/** A job of a newer release goes back to the queue for this long, for a worker of that release. */
const LEAVE_TO_NEWER_MS = 5_000;

/** Runs one client's part of a migration job and records its progress. */
@Injectable()
export class ClientMigrationProcessor implements OnModuleInit {
  private readonly logger = new Logger(ClientMigrationProcessor.name);

  constructor(
    private readonly queue: ClientMigrationQueue,
    private readonly legacy: LegacyClientMigrationQueue,
    private readonly jobs: MigrationJobs,
    private readonly migrator: ClientMigrator,
    private readonly registry: ClientRegistry,
    private readonly settings: PlatformSettings,
    private readonly background: BackgroundMigrator,
  ) {}

  onModuleInit() {
    this.queue.process(this.settings.CLIENT_MIGRATION_CONCURRENCY, (job) => this.run(job));
    this.legacy.process(this.settings.CLIENT_MIGRATION_CONCURRENCY, (job) => this.run(job));
  }

  private async run(job: ClientMigrationJob) {
    // During a rollout a worker of this release may take a part of a newer release's job: migrating
    // to its own newest migration would leave the client behind, so the part waits for a newer worker.
    if (queuedByNewerRelease(job)) return this.queue.enqueue([job], LEAVE_TO_NEWER_MS);
    const { jobId, identifier } = job;
    const startedAt = new Date().toISOString();
    const progress: ClientMigrationProgress = {
      identifier,
      status: 'running',
      migrationsRun: [],
      startedAt,
      finishedAt: null,
    };
    await this.jobs.record(jobId, progress);
    const client = this.registry.findByIdentifier(identifier);
    let reached = progress;
    try {
      if (!client) throw new Error('client not found');
      const migrationsRun = await this.migrator.migrate(client, () =>
        this.jobs.record(jobId, { ...progress, waitingFor: 'move' }),
      );
      reached = { ...progress, migrationsRun };
      await this.jobs.record(jobId, reached);
      // The schema is current and the client served: the back-fills run beside its traffic.
      const background = await this.background.run(client, (backgroundMigrations) =>
        this.jobs.record(jobId, { ...reached, backgroundMigrations }),
      );
      if (background.skipped) this.background.start(client);
      const error = backgroundFailure(background);
      await this.jobs.record(jobId, {
        ...reached,
        backgroundMigrations: background.states,
        ...(background.skipped ? { backgroundSkipped: background.skipped } : {}),
        ...(error ? { status: 'failed', error } : { status: 'done' }),
        finishedAt: now(),
      });
    } catch (err) {
      this.logger.error(`Migrating ${identifier} (job ${jobId}) failed: ${(err as Error).message}`);
      const error = client ? publicFailure(err) : 'Client not found';
      await this.jobs.record(jobId, { ...reached, status: 'failed', error, finishedAt: now() });
    }
  }
}

const now = () => new Date().toISOString();
